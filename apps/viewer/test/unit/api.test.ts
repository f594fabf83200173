import { datasetPath, deltaQuery, distanceQuery, queryString, type DatasetRef } from '../../src/api';

test('datasetPath: the entity type, its id and the group URL-encoded (a group may hold spaces and slashes)', () => {
  expect(datasetPath({ entityType: 'RunSheets', entityId: 'abc', group: 'Stint 1/2' })).toBe('/RunSheets/abc/DataFileAccess/Stint%201%2F2');
  expect(datasetPath({ entityType: 'SessionCarDatas', entityId: 'x', group: 'DataFile' })).toBe('/SessionCarDatas/x/DataFileAccess/DataFile');
});

describe('the lap trace queries (GET .../distance and .../delta)', () => {
  const run1: DatasetRef = { entityType: 'RunSheets', entityId: 'r1', group: 'DataFile', name: 'Run 1 / DataFile', label: 'Run 1 / DataFile (Sample1.ld)' };
  const run2: DatasetRef = { entityType: 'RunSheets', entityId: 'r2', group: 'Stint 2', name: 'Run 2 / Stint 2', label: 'Run 2 / Stint 2 (stint.ld)' };

  test('when a distance source is chosen, then distanceChannel carries its name percent-encoded (spaces, +, & and / included)', () => {
    expect(queryString(distanceQuery(2, { distanceChannel: 'Speed ms' }))).toBe('?lapIndex=2&distanceChannel=Speed%20ms');
    expect(queryString(distanceQuery(2, { maxPoints: 500, distanceChannel: 'v+w & x/y' }))).toBe('?lapIndex=2&maxPoints=500&distanceChannel=v%2Bw%20%26%20x%2Fy');
    expect(queryString(deltaQuery(run1, 2, run1, 1, { maxPoints: 1180, distanceChannel: 'GPS Distance' }))).toBe('?lapIndex=2&referenceLapIndex=1&maxPoints=1180&distanceChannel=GPS%20Distance');
  });

  test('when the source is Automatic (none, or the empty choice), then no distanceChannel is sent', () => {
    expect(queryString(distanceQuery(2))).toBe('?lapIndex=2');
    expect(queryString(distanceQuery(2, { distanceChannel: '' }))).toBe('?lapIndex=2');
    expect(queryString(deltaQuery(run1, 2, run1, 1, { distanceChannel: '' }))).toBe('?lapIndex=2&referenceLapIndex=1');
  });

  test('when the reference lap is in another dataset, then the delta names it, with the distance source resolved in each lap\'s file', () => {
    expect(queryString(deltaQuery(run2, 2, run1, 1, { distanceChannel: 'Speed ms' }))).toBe('?lapIndex=2&referenceLapIndex=1&referenceEntityId=r1&referenceAttachedFileGroupName=DataFile&distanceChannel=Speed%20ms');
  });

  test('when a query has no defined value, then it adds nothing to the path', () => {
    expect(queryString({ maxPoints: undefined })).toBe('');
  });
});
