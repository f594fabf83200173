import type { LapDeltaJson, LapDistanceJson } from '@pitwall/contracts';
import { lapTraces, type LapSlice } from '../../src/workers/lap-traces';

const IDENTITY = { numerator: 1, denominator: 1, offset: 0 };
const ref = (lapIndex: number) => ({ entityId: '00000000-0000-0000-0000-000000000001', entityType: 'RunSheets', attachedFileGroupName: 'DataFile', lapIndex, lapTime: 10 });
const decode = <T>(body: Uint8Array): T => JSON.parse(new TextDecoder().decode(body)) as T;

describe('the pool\'s lap traces', () => {
  test('when a distance channel has gaps and is stored scaled, then the gap samples are no points and the rest are metres from the lap start', () => {
    // Stored 1200, 1250, gap, 1300 with ×1/1000 (km): 1.2, 1.25, -, 1.3 km at 100.0, 100.5, 101, 101.5 s; the lap starts at 100 s.
    const lap: LapSlice = {
      ref: ref(1),
      lapStart: 100,
      source: { kind: 'channel', channel: 'Distance' },
      slice: { name: 'Distance', unit: 'km', frequency: 2, dimension: 1, startTime: 100, samples: Int16Array.from([1200, 1250, 0, 1300]), conversion: { numerator: 1, denominator: 1000, offset: 0 }, gaps: Uint8Array.from([0, 0, 1, 0]) },
    };
    const body = decode<LapDistanceJson>(lapTraces({ op: 'distance', lap }) as Uint8Array);
    expect(body.times).toEqual([0, 0.5, 1.5]);
    expect(body.distances).toEqual([0, 50, 100]);
    expect(body).toMatchObject({ lapIndex: 1, lapTime: 10, source: { kind: 'channel', channel: 'Distance' } });
  });

  test('when samples have explicit times, then they are the trace\'s times; the answer is rounded to the microsecond and millimetre', () => {
    // 3 m/s from 0 to 1/3 s: (3 + 3) / 2 × 1/3 = 1 m; to 0.7 s: 1 + 3 × (0.7 − 1/3) = 2.1 m.
    const lap: LapSlice = {
      ref: ref(0),
      lapStart: 5,
      source: { kind: 'integrated', channel: 'Speed' },
      slice: { name: 'Speed', unit: 'm/s', frequency: 3, dimension: 1, startTime: 5, samples: Float64Array.from([3, 3, 3]), conversion: IDENTITY, times: Float64Array.from([5, 5 + 1 / 3, 5.7]) },
    };
    const body = decode<LapDistanceJson>(lapTraces({ op: 'distance', lap }) as Uint8Array);
    expect(body.times).toEqual([0, 0.333333, 0.7]);
    expect(body.distances).toEqual([0, 1, 2.1]);
  });

  test('when a delta is asked without maxPoints, then the grid has one point per sample of the lap', () => {
    const slice = (speed: number) => ({ name: 'Speed', unit: 'm/s', frequency: 1, dimension: 1, startTime: 0, samples: Float64Array.from({ length: 11 }, () => speed), conversion: IDENTITY });
    // Lap at 10 m/s (0..100 m), reference at 20 m/s (0..200 m): 11 points 0, 10, ... 100 m, delta d/10 − d/20 = d/20.
    const body = decode<LapDeltaJson>(lapTraces({ op: 'delta', lap: { ref: ref(0), lapStart: 0, source: { kind: 'integrated', channel: 'Speed' }, slice: slice(10) }, reference: { ref: ref(1), lapStart: 0, source: { kind: 'integrated', channel: 'Speed' }, slice: slice(20) } }) as Uint8Array);
    expect(body.distance).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(body.delta).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5]);
    expect(body.lap.lapIndex).toBe(0);
    expect(body.reference.lapIndex).toBe(1);
  });
});
