/**
 * A lap's path on the ground, in metres on a local plane (x east, y north for GPS; x along the lap's first heading
 * for dead reckoning), with the distance travelled at each point.
 */
export interface TrackPath {
  x: Float64Array;
  y: Float64Array;
  /** Metres travelled from the first point. */
  distance: Float64Array;
}

/** WGS 84 semi-major axis and first eccentricity squared: the local radii of the tangent-plane projection. */
const WGS84_A = 6_378_137;
const WGS84_E2 = 6.69437999014e-3;

/**
 * GPS latitudes and longitudes (degrees, NaN where a sample is missing) projected on the local tangent plane at the
 * points' mean (equirectangular with the ellipsoid's radii there: east = N·cos φ0·Δλ, north = M·Δφ), metres. Over a
 * circuit (a few km) the error against a true ENU projection is far below a GPS fix's own. A point with a missing
 * coordinate stays NaN; the mean is over the points with both.
 */
export function projectLocal(latitudes: ArrayLike<number>, longitudes: ArrayLike<number>): { x: Float64Array; y: Float64Array } {
  const n = latitudes.length;
  let lat0 = 0;
  let lon0 = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(latitudes[i]) || Number.isNaN(longitudes[i])) continue;
    lat0 += latitudes[i];
    lon0 += longitudes[i];
    count++;
  }
  lat0 /= count || 1;
  lon0 /= count || 1;
  const phi = (lat0 * Math.PI) / 180;
  const s = Math.sin(phi);
  const w = Math.sqrt(1 - WGS84_E2 * s * s);
  const meridian = (WGS84_A * (1 - WGS84_E2)) / (w * w * w);
  const primeVertical = WGS84_A / w;
  const east = (primeVertical * Math.cos(phi) * Math.PI) / 180;
  const north = (meridian * Math.PI) / 180;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const missing = Number.isNaN(latitudes[i]) || Number.isNaN(longitudes[i]);
    x[i] = missing ? NaN : (longitudes[i] - lon0) * east;
    y[i] = missing ? NaN : (latitudes[i] - lat0) * north;
  }
  return { x, y };
}

/** Cumulative length of the polyline through (x, y), from 0 at its first point. */
export function pathDistance(x: ArrayLike<number>, y: ArrayLike<number>): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 1; i < x.length; i++) out[i] = out[i - 1] + Math.hypot(x[i] - x[i - 1], y[i] - y[i - 1]);
  return out;
}

/** What dead reckoning integrates: at each time (s), the speed (m/s) and the heading's rate (rad/s), NaN where unknown. */
export interface DeadReckoningInput {
  times: ArrayLike<number>;
  speeds: ArrayLike<number>;
  /** Yaw rate, rad/s, positive counter-clockwise (ISO 8855: z up). */
  turnRates: ArrayLike<number>;
}

/**
 * Below this speed (m/s) a lateral acceleration says nothing about the heading (a / v blows up on the noise of a
 * car standing still): the heading is held.
 */
export const MIN_TURNING_SPEED = 2;

/**
 * Heading rates from lateral acceleration (m/s², positive to the left, as ISO 8855) and speed (m/s): ω = a / v, 0
 * below MIN_TURNING_SPEED, NaN where either is unknown.
 */
export function turnRateFromLateral(lateral: ArrayLike<number>, speeds: ArrayLike<number>): Float64Array {
  const out = new Float64Array(lateral.length);
  for (let i = 0; i < lateral.length; i++) {
    const v = speeds[i];
    const a = lateral[i];
    out[i] = Number.isNaN(v) || Number.isNaN(a) ? NaN : Math.abs(v) < MIN_TURNING_SPEED ? 0 : a / v;
  }
  return out;
}

/**
 * Dead reckoning: the heading integrated from the turn rate (trapezoidal rule, starting along +x), the position from
 * the speed along the mean heading of each interval. An interval with an unknown speed adds no travel, one with an
 * unknown turn rate no turn: a gap does not invent motion.
 */
export function deadReckon(input: DeadReckoningInput): TrackPath {
  const { times, speeds, turnRates } = input;
  const n = times.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const distance = new Float64Array(n);
  let heading = 0;
  for (let i = 1; i < n; i++) {
    const dt = times[i] - times[i - 1];
    const w0 = turnRates[i - 1];
    const w1 = turnRates[i];
    const turn = Number.isNaN(w0) || Number.isNaN(w1) ? 0 : ((w0 + w1) / 2) * dt;
    const v0 = speeds[i - 1];
    const v1 = speeds[i];
    const ds = Number.isNaN(v0) || Number.isNaN(v1) ? 0 : ((v0 + v1) / 2) * dt;
    const mid = heading + turn / 2;
    x[i] = x[i - 1] + ds * Math.cos(mid);
    y[i] = y[i - 1] + ds * Math.sin(mid);
    distance[i] = distance[i - 1] + Math.abs(ds);
    heading += turn;
  }
  return { x, y, distance };
}

/** How far the path's last point is from its first, metres (0 for fewer than two points). */
export function closureError(path: Pick<TrackPath, 'x' | 'y'>): number {
  const n = path.x.length;
  return n < 2 ? 0 : Math.hypot(path.x[n - 1] - path.x[0], path.y[n - 1] - path.y[0]);
}

/**
 * Closes a lap that should end where it started (a flying lap, line to line): the end point's offset from the start
 * is taken back linearly with distance, nothing at the start, all of it at the end. In place; returns the error
 * before the correction, metres.
 */
export function closeLoop(path: TrackPath): number {
  const n = path.x.length;
  const error = closureError(path);
  const total = path.distance[n - 1];
  if (n < 2 || !(total > 0)) return error;
  const ex = path.x[n - 1] - path.x[0];
  const ey = path.y[n - 1] - path.y[0];
  for (let i = 1; i < n; i++) {
    const share = path.distance[i] / total;
    path.x[i] -= ex * share;
    path.y[i] -= ey * share;
  }
  return error;
}

/**
 * The samples to keep of a path of cumulative `distance` for at most `maxPoints` points: distance-uniform, the first
 * sample at or past each of `maxPoints` evenly spaced distances from the start to the end (the first and the last
 * always kept, each sample once). The shape is kept at the path's own spacing on the ground (a car standing still
 * gives one point, not hundreds), corners are not favoured over straights.
 */
export function distanceUniformIndices(distance: ArrayLike<number>, maxPoints: number): number[] {
  const n = distance.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const total = distance[n - 1];
  const out: number[] = [];
  let i = 0;
  for (let k = 0; k < maxPoints; k++) {
    const target = (total * k) / (maxPoints - 1);
    if (k === maxPoints - 1) i = n - 1;
    else while (i < n - 1 && distance[i] < target) i++;
    if (out.length === 0 || out[out.length - 1] !== i) out.push(i);
  }
  return out;
}
