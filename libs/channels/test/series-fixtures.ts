import type { ChannelSeries, EventSeries } from '../src';

/** One series of each kind the encoder knows: float64 with gaps, float32, raw int16 and int32, downsampled with times. */
export function sampleSeries(): ChannelSeries[] {
  const gapped = Float64Array.from([1.25, NaN, -3.5, 1e-300, NaN, 7]);
  return [
    { name: 'Ground Speed', unit: 'km/h', frequency: 20, dimension: 1, startTime: 12.5, samples: gapped, gaps: Uint8Array.from([0, 1, 0, 0, 1, 0]) },
    { name: 'Throttle Pos', unit: '%', frequency: 50, dimension: 1, startTime: 0, samples: Float32Array.from([0.1, 99.9, 42, -0]) },
    { name: 'Öl Temp', unit: '°C', frequency: 10, dimension: 1, startTime: 3, samples: Int16Array.from([2446, 1001, -7, 0, 1]), conversion: { numerator: 1, denominator: 10, offset: 0 } },
    { name: 'Engine RPM', unit: 'rpm', frequency: 100, dimension: 1, startTime: 0, samples: Int32Array.from([70000, -1, 3]), conversion: { numerator: 3, denominator: 7, offset: -0.5 }, gaps: Uint8Array.from([0, 0, 1]) },
    { name: 'Brake', unit: 'bar', frequency: 200, dimension: 1, startTime: 1, samples: Float64Array.from([0, 12.75, 3]), times: Float64Array.from([1, 1.125, 9.995]) },
    { name: '', unit: '', frequency: 1, dimension: 1, startTime: 0, samples: new Float64Array(0) },
  ];
}

/** A text channel with a gap and non-ASCII text, and a byte channel of a maxPoints read. */
export function eventSeries(): EventSeries[] {
  const text = new TextEncoder().encode('BOX BOXGröße ✓');
  return [
    { kind: 'text', name: 'Driver Message', unit: '', frequency: 10, startTime: 1, times: Float64Array.from([1, 1.5, 2.25]), offsets: Uint32Array.from([0, 7, 7, text.length]), bytes: text, gaps: Uint8Array.from([0, 1, 0]) },
    { kind: 'bytes', name: 'CAN Frame', unit: '', frequency: 100, startTime: 0, times: Float64Array.from([0, 0.01]), offsets: Uint32Array.from([0, 3, 7]), bytes: Uint8Array.from([0, 1, 255, 1, 2, 3, 4]), maxPointsApplied: false },
  ];
}
