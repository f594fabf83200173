import type { TrackMapJson } from '@pitwall/contracts';
import { fileTimeOf, MAP_MARGIN, mapSegments, mapView, pointAtFileTime, pointNearPixel } from '../../src/track-map';

/** A 100 m × 50 m rectangle driven in 4 s from t = 10 s on the file's axis, coloured 0..4. */
const answer: TrackMapJson = {
  lap: { entityId: '00000000-0000-4000-8000-000000000001', entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex: 1, lapTime: 4 },
  startTime: 10,
  source: 'gps',
  channels: [],
  colour: { name: 'Speed', unit: 'km/h' },
  closed: true,
  closureErrorMetres: 0,
  count: 5,
  points: { x: [0, 100, 100, 0, 0], y: [0, 0, 50, 50, 0], distance: [0, 100, 150, 250, 300], time: [0, 1, 2, 3, 4], value: [0, 1, 2, 3, 4] },
};

describe('the track map view', () => {
  test('when a path is fitted to a canvas, then x and y share one scale, it is centred, and north is up', () => {
    const view = mapView(answer, 232, 232);
    // 200 px for 100 m: 2 px a metre both ways; 50 m tall is 100 px, centred vertically.
    expect(view.toPixel(0, 0)).toEqual([MAP_MARGIN, 166]);
    expect(view.toPixel(100, 50)).toEqual([232 - MAP_MARGIN, 66]);
  });

  test('when the path is coloured by a channel, then each segment takes its first point\'s value on the ramp (dark purple low, orange high)', () => {
    const segments = mapSegments(answer, mapView(answer, 232, 232), '#123456');
    expect(segments).toHaveLength(4);
    expect(segments[0]?.colour).toBe('#160b39');
    expect(segments[3]?.colour).toBe('#c53e4d');
    expect(mapSegments({ ...answer, colour: null, points: { ...answer.points, value: undefined } }, mapView(answer, 232, 232), '#123456').every((s) => s.colour === '#123456')).toBe(true);
  });

  test('when the time plots\' cursor is at a file time, then the marker goes to the last point at or before it, none outside the lap; and back', () => {
    expect(pointAtFileTime(answer, 12.5)).toBe(2);
    expect(pointAtFileTime(answer, 10)).toBe(0);
    expect(pointAtFileTime(answer, 9.9)).toBeNull();
    expect(pointAtFileTime(answer, 14.1)).toBeNull();
    expect(fileTimeOf(answer, 3)).toBe(13);
  });

  test('when the mouse is over the map, then the nearest point is found', () => {
    const view = mapView(answer, 232, 232);
    const [x, y] = view.toPixel(100, 50);
    expect(pointNearPixel(answer, view, x + 3, y - 2)).toBe(2);
  });
});
