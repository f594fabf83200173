import { closeLoop, closureError, deadReckon, distanceUniformIndices, pathDistance, projectLocal, turnRateFromLateral } from '../src';

/** A circle of radius R driven at v m/s, turning left from +x: its times, and its centre at (0, R). */
function circleDrive(radius: number, speed: number, hz: number): { times: number[]; lapTime: number } {
  const lapTime = (2 * Math.PI * radius) / speed;
  const n = Math.round(lapTime * hz);
  return { times: Array.from({ length: n + 1 }, (_, i) => (i * lapTime) / n), lapTime };
}

/** The point `metres` from (lat, lon) on bearing `bearing` (degrees from north), on a sphere of radius 6,371,008.8 m. */
function destination(lat: number, lon: number, bearing: number, metres: number): [number, number] {
  const R = 6_371_008.8;
  const d = metres / R;
  const [p1, l1, b] = [(lat * Math.PI) / 180, (lon * Math.PI) / 180, (bearing * Math.PI) / 180];
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 = l1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [(p2 * 180) / Math.PI, (l2 * 180) / Math.PI];
}

describe('deadReckon', () => {
  test('when a circle is driven at constant speed and yaw rate, then the path is that circle and it closes', () => {
    const [R, v] = [200, 40];
    const { times } = circleDrive(R, v, 50);
    const path = deadReckon({ times, speeds: times.map(() => v), turnRates: times.map(() => v / R) });
    const n = times.length;
    expect(path.distance[n - 1]).toBeCloseTo(2 * Math.PI * R, 6);
    for (let i = 0; i < n; i += 37) expect(Math.hypot(path.x[i] as number, (path.y[i] as number) - R)).toBeCloseTo(R, 1);
    // A quarter of the way round, the car is at (R, R), heading north.
    const q = Math.round((n - 1) / 4);
    expect(path.x[q]).toBeCloseTo(R, 0);
    expect(path.y[q]).toBeCloseTo(R, 0);
    expect(closureError(path)).toBeLessThan(0.05);
  });

  test('when the turn comes from lateral acceleration in g, then ω = a / v gives the same circle', () => {
    const [R, v] = [150, 30];
    const { times } = circleDrive(R, v, 50);
    const g = (v * v) / R / 9.80665;
    const speeds = times.map(() => v);
    const turnRates = turnRateFromLateral(times.map(() => g * 9.80665), speeds);
    expect(turnRates[0]).toBeCloseTo(v / R, 12);
    const path = deadReckon({ times, speeds, turnRates });
    expect(closureError(path)).toBeLessThan(0.05);
    expect(Math.max(...Array.from(path.y))).toBeCloseTo(2 * R, 1);
  });

  test('when the car stands still or a sample is missing, then no travel and no turn are invented', () => {
    expect(Array.from(turnRateFromLateral([5, 5, NaN], [0.5, 10, 10]))).toEqual([0, 0.5, NaN]);
    const path = deadReckon({ times: [0, 1, 2, 3], speeds: [10, NaN, 10, 10], turnRates: [0, 0, NaN, 0] });
    expect(Array.from(path.distance)).toEqual([0, 0, 0, 10]);
    expect(Array.from(path.x)).toEqual([0, 0, 0, 10]);
  });
});

describe('closeLoop', () => {
  test('when a lap drifts (a yaw-rate bias), then its end is taken back to its start linearly with distance and the error is reported', () => {
    const [R, v] = [200, 40];
    const { times } = circleDrive(R, v, 50);
    const path = deadReckon({ times, speeds: times.map(() => v), turnRates: times.map(() => v / R + 0.002) });
    const n = times.length;
    const [ex, ey] = [(path.x[n - 1] as number) - (path.x[0] as number), (path.y[n - 1] as number) - (path.y[0] as number)];
    const half = Math.round((n - 1) / 2);
    const [hx, hy, share] = [path.x[half] as number, path.y[half] as number, (path.distance[half] as number) / (path.distance[n - 1] as number)];
    const error = closeLoop(path);
    expect(error).toBeCloseTo(Math.hypot(ex, ey), 9);
    expect(error).toBeGreaterThan(10);
    expect(closureError(path)).toBeLessThan(1e-9);
    expect(path.x[0]).toBe(0);
    expect(path.x[half]).toBeCloseTo(hx - ex * share, 9);
    expect(path.y[half]).toBeCloseTo(hy - ey * share, 9);
  });
});

describe('projectLocal', () => {
  test('when a 400 m GPS square is projected, then its sides are 400 m long and at right angles', () => {
    const side = 400;
    // Corners clockwise from the south-west one, on a sphere (the projection uses the ellipsoid's radii: up to 0.33 % apart at 52°).
    const sw: [number, number] = [52.07, -1.02];
    const nw = destination(...sw, 0, side);
    const ne = destination(...nw, 90, side);
    const se = destination(...sw, 90, side);
    const corners = [sw, nw, ne, se, sw];
    const lat: number[] = [];
    const lon: number[] = [];
    for (let k = 0; k < 4; k++) {
      const [a, b] = [corners[k] as [number, number], corners[k + 1] as [number, number]];
      for (let i = 0; i < 100; i++) {
        lat.push(a[0] + ((b[0] - a[0]) * i) / 100);
        lon.push(a[1] + ((b[1] - a[1]) * i) / 100);
      }
    }
    lat.push(sw[0]);
    lon.push(sw[1]);
    const { x, y } = projectLocal(lat, lon);
    const at = (i: number) => [x[i] as number, y[i] as number];
    const cornerPoints = [0, 100, 200, 300, 400].map(at) as [number, number][];
    for (let k = 0; k < 4; k++) {
      const [a, b] = [cornerPoints[k] as [number, number], cornerPoints[k + 1] as [number, number]];
      expect(Math.abs(Math.hypot(b[0] - a[0], b[1] - a[1]) - side)).toBeLessThan(side * 0.005);
    }
    // West side north, north side east: x east, y north.
    const [p0, p1, p2] = cornerPoints as [[number, number], [number, number], [number, number]];
    expect(p1[1] - p0[1]).toBeGreaterThan(390);
    expect(p2[0] - p1[0]).toBeGreaterThan(390);
    const dot = (p1[0] - p0[0]) * (p2[0] - p1[0]) + (p1[1] - p0[1]) * (p2[1] - p1[1]);
    expect(Math.abs(dot) / (side * side)).toBeLessThan(0.01);
    // About the mean point: the square is centred on the origin.
    expect(Math.abs(Array.from(x).reduce((s, v) => s + v, 0) / x.length)).toBeLessThan(1e-6);
    const distance = pathDistance(x, y);
    expect(Math.abs((distance[400] as number) - 4 * side)).toBeLessThan(4 * side * 0.005);
  });

  test('when a fix is missing, then its point is NaN and the mean is of the others', () => {
    const { x, y } = projectLocal([50, NaN, 50], [0, 0, 0.001]);
    expect(Number.isNaN(x[1] as number)).toBe(true);
    expect((x[2] as number) - (x[0] as number)).toBeGreaterThan(71);
    expect(y[0]).toBe(0);
  });
});

describe('distanceUniformIndices', () => {
  test('when the path is longer than maxPoints, then at most maxPoints samples evenly spaced in distance are kept, the first and the last among them', () => {
    // 1,000 samples: 200 standing still, then 800 at 1 m each.
    const distance = Array.from({ length: 1000 }, (_, i) => Math.max(0, i - 200));
    const kept = distanceUniformIndices(distance, 101);
    expect(kept.length).toBeLessThanOrEqual(101);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(999);
    // Every 8 m, and the standing start is one point.
    expect(kept.slice(1, 4).map((i) => distance[i])).toEqual([8, 16, 24]);
    expect(distanceUniformIndices(distance, 2000)).toHaveLength(1000);
  });
});
