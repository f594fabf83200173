import { datasetPath } from '../../src/api';

test('datasetPath: the entity type, its id and the group URL-encoded (a group may hold spaces and slashes)', () => {
  expect(datasetPath({ entityType: 'RunSheets', entityId: 'abc', group: 'Stint 1/2' })).toBe('/RunSheets/abc/DataFileAccess/Stint%201%2F2');
  expect(datasetPath({ entityType: 'SessionCarDatas', entityId: 'x', group: 'DataFile' })).toBe('/SessionCarDatas/x/DataFileAccess/DataFile');
});
