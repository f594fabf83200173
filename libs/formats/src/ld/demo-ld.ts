import { type LdChannelInput, writeLdFile } from './ld-writer';

export interface DemoLdOptions {
  /** Flying laps between the out-lap and the in-lap; default 3. */
  flyingLaps?: number;
  outingTime?: string;
  /**
   * The full logger's channel set: besides the 9 driver and engine channels, suspension, wheel speeds, tyre
   * temperatures, accelerations, the car's vitals, and a 20 Hz GPS position (`GPS Latitude`, `GPS Longitude`, deg) on a
   * closed circuit that the speed trace drives once per lap, every lap the same length by either (29 channels in all,
   * about 0.6 MB for 3 flying laps).
   */
  fullChannelSet?: boolean;
}

/** The demo circuit: 62 s at a mean 150 km/h long, about a point in the English Midlands. */
const CIRCUIT_METRES = (62 * 150) / 3.6;
const CIRCUIT_ORIGIN = { latitude: 52.07, longitude: -1.02 };
const CIRCUIT_STEPS = 2048;

/**
 * A rounded triangle (polar r = 1 + 0.22 cos 3θ + 0.06 sin 2θ: three hairpins joined by slightly bowed straights),
 * scaled to CIRCUIT_METRES and walked by arc length, its hairpins near the speed trace's three slowest points.
 * Positions are east/north metres about the origin turned into degrees on a sphere.
 */
const circuit = (() => {
  const x = new Float64Array(CIRCUIT_STEPS + 1);
  const y = new Float64Array(CIRCUIT_STEPS + 1);
  const along = new Float64Array(CIRCUIT_STEPS + 1);
  for (let k = 0; k <= CIRCUIT_STEPS; k++) {
    // Clockwise from the first hairpin's exit, a quarter of a lap before the first slow point.
    const theta = -((2 * Math.PI * k) / CIRCUIT_STEPS) + Math.PI / 2;
    const r = 1 + 0.22 * Math.cos(3 * theta) + 0.06 * Math.sin(2 * theta);
    x[k] = r * Math.cos(theta);
    y[k] = r * Math.sin(theta);
    if (k > 0) along[k] = along[k - 1] + Math.hypot(x[k] - x[k - 1], y[k] - y[k - 1]);
  }
  const scale = CIRCUIT_METRES / along[CIRCUIT_STEPS];
  return { x: x.map((v) => v * scale), y: y.map((v) => v * scale), along: along.map((v) => v / along[CIRCUIT_STEPS]) };
})();

function circuitAt(fraction: number): { latitude: number; longitude: number } {
  const f = Math.min(1, Math.max(0, fraction));
  let lo = 0;
  let hi = CIRCUIT_STEPS;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (circuit.along[mid] <= f) lo = mid;
    else hi = mid;
  }
  const share = (f - circuit.along[lo]) / (circuit.along[hi] - circuit.along[lo] || 1);
  const east = circuit.x[lo] + (circuit.x[hi] - circuit.x[lo]) * share;
  const north = circuit.y[lo] + (circuit.y[hi] - circuit.y[lo]) * share;
  const R = 6_371_008.8;
  const degrees = 180 / Math.PI;
  return {
    latitude: CIRCUIT_ORIGIN.latitude + (north / R) * degrees,
    longitude: CIRCUIT_ORIGIN.longitude + (east / (R * Math.cos(CIRCUIT_ORIGIN.latitude / degrees))) * degrees,
  };
}

/** The speed trace's shape along a lap at phase p (0..1), km/h: three straights and corners, the same every lap. */
const speedShape = (p: number) => 150 + 70 * Math.sin(2 * Math.PI * 3 * p) + 20 * Math.sin(2 * Math.PI * 7 * p + 1);

const smoothstep = (x: number) => {
  const c = Math.min(1, Math.max(0, x));
  return c * c * (3 - 2 * c);
};

/** Steps of a lap's distance table (the GPS position's share of the lap is interpolated in it). */
const LAP_STEPS = 4096;

/**
 * Each lap's pace along it (a factor of the speed shape) and the share of its distance covered at each phase. Every
 * lap drives CIRCUIT_METRES, whatever its time: pace is 1 at every lap line (so the speed runs on across the lines
 * without a step) and `1 + a × weight(p)` inside, `a` solved from the lap's time. A flying lap's weight is
 * sin²(πp) (a 62.4 s lap runs about 1.3 % under pace at mid-lap, a 62 s one at the shape's own pace); the pit lane
 * laps are slower over the same track: the out-lap's pace eases into the flying laps' over its last 15 %, the
 * in-lap's out of it over its first 15 %.
 */
function lapPaces(lapLengths: readonly number[]): { pace: (p: number) => number; fraction: (p: number) => number }[] {
  return lapLengths.map((seconds, lap) => {
    const weight = lap === 0 ? (p: number) => 1 - smoothstep((p - 0.85) / 0.15) : lap === lapLengths.length - 1 ? (p: number) => smoothstep(p / 0.15) : (p: number) => Math.sin(Math.PI * p) ** 2;
    // Metres per unit of phase for the shape alone and for the weighted shape (trapezoids on LAP_STEPS).
    const integral = (f: (p: number) => number) => {
      let sum = 0;
      for (let k = 0; k <= LAP_STEPS; k++) sum += (k === 0 || k === LAP_STEPS ? 0.5 : 1) * f(k / LAP_STEPS);
      return (sum / LAP_STEPS) * (seconds / 3.6);
    };
    const a = (CIRCUIT_METRES - integral(speedShape)) / integral((p) => speedShape(p) * weight(p));
    const pace = (p: number) => 1 + a * weight(p);
    const along = new Float64Array(LAP_STEPS + 1);
    for (let k = 1; k <= LAP_STEPS; k++) along[k] = along[k - 1] + (speedShape((k - 1) / LAP_STEPS) * pace((k - 1) / LAP_STEPS) + speedShape(k / LAP_STEPS) * pace(k / LAP_STEPS)) / 2;
    const total = along[LAP_STEPS];
    const fraction = (p: number) => {
      const x = Math.min(1, Math.max(0, p)) * LAP_STEPS;
      const k = Math.min(LAP_STEPS - 1, Math.floor(x));
      return (along[k] + (along[k + 1] - along[k]) * (x - k)) / total;
    };
    return { pace, fraction };
  });
}

/**
 * A small but realistic MoTeC `.ld` outing (out-lap, flying laps, in-lap; about 100 kB for 3 flying laps) whose
 * laps are recoverable from its `Lap Number` and `Beacon` channels. Deterministic: same options, same bytes.
 */
export function createDemoLdFile(options: DemoLdOptions = {}): Uint8Array {
  const flying = options.flyingLaps ?? 3;
  // Lap times in tenths of a second, so the 10 Hz Lap Number and Beacon mark every line where it is; the in-lap ends
  // on a whole second, the end of the file.
  const tenths = [780, ...Array.from({ length: flying }, (_, i) => 620 + Math.round(4 * Math.sin(i * 1.7)))];
  const inLapStart = tenths.reduce((a, b) => a + b, 0);
  tenths.push(700 + ((10 - ((inLapStart + 700) % 10)) % 10));
  const startTenths = tenths.reduce<number[]>((starts, _len, i) => [...starts, i === 0 ? 0 : starts[i - 1] + tenths[i - 1]], []);
  const lapLengths = tenths.map((n) => n / 10);
  const lapStarts = startTenths.map((n) => n / 10);
  const duration = (startTenths[startTenths.length - 1] + tenths[tenths.length - 1]) / 10;
  const laps = lapPaces(lapLengths);

  // Where in its lap (0..1) the car is at time t.
  const lapAt = (t: number) => {
    let lap = 0;
    while (lap + 1 < startTenths.length && t * 10 >= startTenths[lap + 1] - 1e-6) lap++;
    return { lap, phase: Math.min(1, (t - lapStarts[lap]) / lapLengths[lap]) };
  };
  const speed = (t: number) => {
    const { lap, phase } = lapAt(t);
    return laps[lap].pace(phase) * speedShape(phase);
  };
  const gear = (t: number) => Math.min(6, Math.max(1, Math.ceil(speed(t) / 42)));
  const channel = (name: string, unit: string, frequency: number, value: (t: number) => number, scaling?: LdChannelInput['scaling']): LdChannelInput => ({
    name,
    unit,
    frequency,
    scaling,
    sampleCount: duration * frequency,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) out[i] = value((first + i) / frequency);
    },
  });

  const corner = ['FL', 'FR', 'RL', 'RR'];
  const lateralG = (t: number) => (speed(t) / 220) * 2.2 * Math.sin(2 * Math.PI * 5 * lapAt(t).phase);
  const longitudinalG = (t: number) => 1.2 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase);
  const full: LdChannelInput[] = options.fullChannelSet
    ? [
        ...corner.map((c, k) => channel(`Susp Pos ${c}`, 'mm', 50, (t) => 25 + (k < 2 ? 6 : 4) * longitudinalG(t) * (k < 2 ? -1 : 1) + 3 * lateralG(t) * (k % 2 ? -1 : 1), { dec: 2 })),
        ...corner.map((c, k) => channel(`Wheel Speed ${c}`, 'km/h', 50, (t) => speed(t) * (1 + 0.01 * (k % 2 ? -1 : 1) * lateralG(t)), { dec: 1 })),
        ...corner.map((c, k) => channel(`Tyre Temp ${c}`, 'C', 10, (t) => 60 + 30 * (1 - Math.exp(-t / 90)) + (k % 2 ? -2 : 2) * lateralG(t), { dec: 1 })),
        channel('G Force Lat', 'G', 50, lateralG, { dec: 3 }),
        channel('G Force Long', 'G', 50, longitudinalG, { dec: 3 }),
        channel('Oil Temp', 'C', 1, (t) => 95 + 10 * (1 - Math.exp(-t / 150)), { dec: 1 }),
        channel('Oil Pressure', 'bar', 10, (t) => 2 + (speed(t) / gear(t)) * 0.07, { dec: 2 }),
        channel('Fuel Level', 'l', 1, (t) => 60 - t * 0.012, { dec: 2 }),
        channel('Battery Volts', 'V', 1, (t) => 13.8 - 0.2 * Math.sin(t / 30), { dec: 2 }),
        // Last, so the channels above keep their places and values.
        { ...channel('GPS Latitude', 'deg', 20, (t) => circuitAt(laps[lapAt(t).lap].fraction(lapAt(t).phase)).latitude, { dec: 7 }), type: 'int32' },
        { ...channel('GPS Longitude', 'deg', 20, (t) => circuitAt(laps[lapAt(t).lap].fraction(lapAt(t).phase)).longitude, { dec: 7 }), type: 'int32' },
      ]
    : [];

  return writeLdFile({
    properties: {
      eventName: 'Pitwall demo day',
      sessionName: 'Practice 1',
      driverName: 'Demo Driver',
      venueName: 'Demo Circuit',
      carId: 'D01',
      comment: 'generated demo outing',
      outingTime: options.outingTime ?? '2026-03-14T10:30:00',
    },
    deviceType: 'DEMO',
    channels: [
      channel('Engine RPM', 'rpm', 100, (t) => 2000 + (speed(t) / gear(t)) * 190, { mul: 6, scale: 10, dec: -1 }),
      channel('Ground Speed', 'km/h', 50, speed, { dec: 1 }),
      channel('Throttle Pos', '%', 50, (t) => Math.min(100, Math.max(0, 50 + 60 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase))), { dec: 1 }),
      channel('Brake Pressure', 'bar', 50, (t) => Math.max(0, -40 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase) - 10), { dec: 1 }),
      channel('Steered Angle', 'deg', 50, (t) => 30 * Math.sin(2 * Math.PI * 5 * lapAt(t).phase), { dec: 1 }),
      channel('Gear', '', 10, gear),
      channel('Coolant Temp', 'C', 1, (t) => 82 + 6 * (1 - Math.exp(-t / 120)), { dec: 1 }),
      channel('Lap Number', '', 10, (t) => lapAt(t).lap),
      channel('Beacon', '', 10, (t) => (lapAt(t).lap > 0 && t - lapStarts[lapAt(t).lap] < 0.1 ? 1 : 0)),
      ...full,
    ],
  });
}
