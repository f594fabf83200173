import type { Piscina } from 'piscina';
import { bytesSource, openLdSource, resolveScope, scopeSampleRange, StoredChannelCache, writeLdFile, type ReadScope, type SampleRange } from '@pitwall/formats';
import type { OpenDataset } from '../../src/domain/datasets';
import type { MathDefinition } from '../../src/domain/math-definitions';
import { mathReads, resolveMathChannels, type MathChannelInfo } from '../../src/domain/read-math-channels';
import { evaluateMathChannels, withMathChannels, type MathTask } from '../../src/workers/math-channels';
import type { StoredSlice } from '../../src/workers/shape-channels';

/**
 * What a read of a math channel reads and counts (docs/math-channels.md): the context its time functions need beyond
 * the read's scope (integral and lowpass from the file's first sample, derivative a sample each side, smooth half its
 * width each side), a sample past it each side of a slower input, nothing more for a channel without time functions;
 * READ_SAMPLE_BUDGET counts exactly that in a `.ld` (its ranges are known from the catalogue).
 */

/** Speed at 100 Hz and Throttle at 10 Hz for 10 s, laps from a 10 Hz Lap Number (a line at 4.05 s). */
function ld(): Uint8Array {
  const at = (frequency: number, f: (t: number) => number) => Array.from({ length: 10 * frequency }, (_, i) => f(i / frequency));
  return writeLdFile({
    channels: [
      { name: 'Speed', unit: 'km/h', frequency: 100, type: 'int16', scaling: { dec: 1 }, samples: at(100, (t) => 100 + 50 * Math.sin(t) + 3 * Math.cos(t * 17)) },
      { name: 'Throttle', unit: '%', frequency: 10, type: 'float32', samples: at(10, (t) => 50 + 40 * Math.cos(t / 2)) },
      { name: 'Lap Number', frequency: 10, samples: at(10, (t) => (t < 4.02 ? 0 : 1)) },
    ],
  });
}

const definitions = new Map<string, MathDefinition>(
  (
    [
      ['Speed ms', '"Speed" / 3.6'],
      ['Power', '"Speed ms" * Throttle'],
      ['Distance', 'integral("Speed ms")'],
      ['Accel', 'derivative("Speed ms")'],
      ['Smooth', 'smooth(Speed, 0.5)'],
      ['Filtered', 'lowpass(Speed, 2)'],
      ['Lap metres', 'lapDistance() + 0 * Speed'],
      ['Accel 30 Hz', 'derivative("Speed ms") + Throttle', 30],
      ['Throttle sum 7 Hz', 'integral(Throttle)', 7],
      ['Lap time 3 Hz', 'smooth(lapTime(), 0.7)', 3],
      ['Lap table 3 Hz', 'interp(lapNumber(), 0, 5, 1, 7) + lookup(smooth(lapTime(), 0.7), 1, 1, 2, 2)', 3],
      ['Lap number', 'lapNumber() + 0 * Speed'],
      ['Throttle 50 Hz', 'Throttle * 2', 50],
    ] as const
  ).map(([name, expression, rate]: readonly [string, string, number?]) => [name, { name, expression, unit: '', ...(rate ? { rate } : {}) }]),
);

async function reader() {
  const file = await openLdSource(bytesSource(ld()));
  const ranges: { name: string; range?: SampleRange }[] = [];
  const recording = { ...file, readStored: (name: string, range?: SampleRange) => (ranges.push({ name, ...(range ? { range } : {}) }), file.readStored(name, range)) } as OpenDataset['file'];
  const dataset: OpenDataset = { file: recording, contentKey: `context-${Math.random()}` };
  const infos = resolveMathChannels(recording, [...definitions.keys()], definitions, () => 'channel');
  const tasks: MathTask[] = [];
  const pool = { run: async (task: MathTask) => (tasks.push(task), evaluateMathChannels(task)) } as unknown as Piscina;
  const reads = mathReads(dataset, infos, { cache: new StoredChannelCache(1e8), pool });
  const info = (name: string) => infos.get(name) as MathChannelInfo;
  return { file: recording, reads, info, ranges, tasks };
}

/** The samples [from, to) of a logged channel a read of `scope` takes. */
function windowOf(file: OpenDataset['file'], name: string, scope: ReadScope): { from: number; to: number } {
  const c = file.channels.find((x) => x.name === name) as { frequency: number; sampleCount: number };
  return scopeSampleRange(resolveScope(scope, file), { kind: 'implicit', start: 0, frequency: c.frequency }, c.sampleCount);
}

/** The channels read over the whole file (by a reader of their own: the others' ranges are read afresh). */
async function wholeFile(names: string[]): Promise<StoredSlice[]> {
  const { file, reads, info } = await reader();
  return reads.slices(names.map(info), resolveScope({ mode: 'file' }, file), new AbortController().signal);
}

/** Values to compare: to float precision, or within it of the expected (`close`); a gap (NaN) as such. */
function values(samples: ArrayLike<number>, close = false): unknown[] {
  return Array.from(samples, (v) => (Number.isNaN(v) ? 'gap' : close ? expect.closeTo(v, 9) : v));
}

const late: ReadScope = { mode: 'window', start: 7.013, duration: 1.5 };

describe('the context of a math channel read', () => {
  test('when a channel without time functions is read in a window, then its input is read over the window alone, as the logged channel is, and every sample evaluated is sent', async () => {
    const { file, reads, info, ranges, tasks } = await reader();
    const window = resolveScope(late, file);
    const slice = await reads.slice(info('Speed ms'), window, new AbortController().signal);
    const speed = windowOf(file, 'Speed', late);
    expect(ranges).toEqual([{ name: 'Speed', range: speed }]);
    expect(tasks[0]?.keep).toBeUndefined();
    expect(slice.samples).toHaveLength(speed.to - speed.from);
    // Its samples, its base's times and its result: what it counted before contexts.
    expect(reads.decodes(info('Speed ms'), window)).toBe(150 + 150 * 2);
  });

  test('when integral and lowpass are read in a window, then their input is read from the file\'s first sample to the window\'s end, and the window\'s samples sent: the whole file\'s values there', async () => {
    const { file, reads, info, ranges, tasks } = await reader();
    const window = resolveScope(late, file);
    const whole = await wholeFile(['Distance', 'Filtered']);
    const [distance, filtered] = await reads.slices([info('Distance'), info('Filtered')], window, new AbortController().signal);
    const speed = windowOf(file, 'Speed', late);
    expect(ranges).toEqual([{ name: 'Speed', range: { from: 0, to: speed.to } }]);
    expect(tasks.map((t) => t.keep)).toEqual([{ from: speed.from, to: speed.to, startTime: speed.from / 100 }]);
    for (const [slice, all] of [
      [distance, whole[0]],
      [filtered, whole[1]],
    ] as [StoredSlice, StoredSlice][]) {
      expect(slice.startTime).toBe(speed.from / 100);
      expect(Array.from(slice.samples)).toEqual(Array.from(all.samples.subarray(speed.from, speed.to), (v) => expect.closeTo(v, 9)));
    }
    // Speed's samples to the window's end, the base's times and each definition's arrays there, and the window's own
    // samples once more (copied out): Distance has Speed ms (1) and its integral (1).
    expect(reads.decodes(info('Distance'), window)).toBe(speed.to + speed.to * (1 + 1 + 1) + (speed.to - speed.from));
  });

  test('when derivative and smooth are read in a window, then their input is read a sample or half the width and a sample past each end, and the window\'s ends are the whole file\'s values', async () => {
    const { file, reads, info, ranges } = await reader();
    const [accelAll, smoothAll] = await wholeFile(['Accel', 'Smooth']);
    for (const scope of [late, { mode: 'lap', lapIndex: 1 }, { mode: 'window', start: 3.995, duration: 0.011 }] as ReadScope[]) {
      ranges.length = 0;
      const window = resolveScope(scope, file);
      const [accel, smooth] = await reads.slices([info('Accel'), info('Smooth')], window, new AbortController().signal);
      const speed = windowOf(file, 'Speed', scope);
      // Accel: one sample each side; Smooth: 25 (0.25 s at 100 Hz) and one more (an edge sample within rounding) each
      // side, clipped to the file.
      expect(ranges).toEqual([
        { name: 'Speed', range: { from: speed.from - 1, to: Math.min(1000, speed.to + 1) } },
        { name: 'Speed', range: { from: speed.from - 26, to: Math.min(1000, speed.to + 26) } },
      ]);
      expect(Array.from((accel as StoredSlice).samples)).toEqual(Array.from((accelAll as StoredSlice).samples.subarray(speed.from, speed.to), (v) => expect.closeTo(v, 9)));
      expect(Array.from((smooth as StoredSlice).samples)).toEqual(Array.from((smoothAll as StoredSlice).samples.subarray(speed.from, speed.to), (v) => expect.closeTo(v, 9)));
    }
  });

  test('when a channel resamples a slower input, then that input is read a sample past each end of the base, so the window\'s last samples are interpolated as in the whole file', async () => {
    const { file, reads, info, ranges } = await reader();
    const scope: ReadScope = { mode: 'window', start: 2.5, duration: 0.995 };
    const [whole] = await wholeFile(['Power']);
    const [power] = await reads.slices([info('Power')], resolveScope(scope, file), new AbortController().signal);
    const speed = windowOf(file, 'Speed', scope);
    // Speed from 2.5 s to 3.49 s; Throttle's samples at 2.5 s to 3.4 s in the window, 3.5 s past it.
    expect(ranges).toEqual([
      { name: 'Speed', range: speed },
      { name: 'Throttle', range: { from: 24, to: 36 } },
    ]);
    expect(Array.from((power as StoredSlice).samples)).toEqual(Array.from((whole as StoredSlice).samples.subarray(speed.from, speed.to), (v) => expect.closeTo(v, 9)));
    expect(Number.isNaN((power as StoredSlice).samples.at(-1))).toBe(false);
  });

  test('when lapDistance() is read in a window, then the distance source is read from the window\'s lap\'s start to two samples past its end', async () => {
    const { file, reads, info, ranges, tasks } = await reader();
    const scope: ReadScope = { mode: 'window', start: 6, duration: 1 };
    await reads.slice(info('Lap metres'), resolveScope(scope, file), new AbortController().signal);
    const speed = windowOf(file, 'Speed', scope);
    const lap = windowOf(file, 'Speed', { mode: 'lap', lapIndex: 1 });
    expect(ranges).toEqual([
      { name: 'Speed', range: speed },
      { name: 'Speed', range: { from: lap.from, to: speed.to + 1 } },
    ]);
    expect(tasks[0]?.distance?.laps).toEqual([{ from: 0, to: speed.to + 1 - lap.from }]);
  });

  test('when lapNumber() is read in a window of the second lap, then the task is sent that lap alone with its index, and every sample is 1, as in the whole file', async () => {
    const { file, reads, info, tasks } = await reader();
    const scope: ReadScope = { mode: 'window', start: 6, duration: 1 };
    const window = resolveScope(scope, file);
    const slice = await reads.slice(info('Lap number'), window, new AbortController().signal);
    // Speed's 100 samples, and the base's times, the lap numbers and the result over them.
    expect(reads.decodes(info('Lap number'), window)).toBe(100 + 100 * 3);
    expect(tasks[0]?.laps).toEqual([{ start: file.laps[1]?.startTime, end: file.laps[1]?.endTime, index: 1 }]);
    expect(new Set(slice.samples)).toEqual(new Set([1]));
    const [whole] = await wholeFile(['Lap number']);
    const laps = Array.from((whole as StoredSlice).samples);
    // 100 Hz Speed from 0 s; the line at 4.1 s (Lap Number's first sample of lap 1).
    expect([laps.length, laps.indexOf(1), laps.lastIndexOf(0), laps.at(-1)]).toEqual([1000, 410, 409, 1]);
  });

  test('when a channel with a Rate is read in a window or a lap, then its points are those of the whole file\'s grid there, with the whole file\'s values', async () => {
    // Throttle 50 Hz reads a 10 Hz channel alone: grid points lie between a window's edge and its first or last sample.
    const names = ['Accel 30 Hz', 'Throttle sum 7 Hz', 'Lap time 3 Hz', 'Lap table 3 Hz', 'Throttle 50 Hz'];
    const whole = await wholeFile(names);
    for (const scope of [late, { mode: 'lap', lapIndex: 1 }, { mode: 'window', start: 3.9, duration: 0.5 }] as ReadScope[]) {
      const { file, reads, info } = await reader();
      const slices = await reads.slices(names.map(info), resolveScope(scope, file), new AbortController().signal);
      const window = resolveScope(scope, file) as { start: number; end: number };
      slices.forEach((slice, c) => {
        const all = whole[c] as StoredSlice;
        const first = (slice.startTime - all.startTime) * slice.frequency;
        expect({ scope, name: slice.name, onGrid: Math.abs(first - Math.round(first)) < 1e-6, some: slice.samples.length > 0 }).toEqual({ scope, name: slice.name, onGrid: true, some: true });
        const from = Math.round(first);
        expect(values(slice.samples)).toEqual(values(all.samples.subarray(from, from + slice.samples.length), true));
        // Every point of the whole file's grid in the window, [start, end), those between its edge and the inputs'
        // first or last sample in it too.
        const inWindow = Array.from(all.samples, (_, k) => all.startTime + k / all.frequency).filter((t) => t >= window.start - 1e-9 && t < window.end - 1e-9);
        expect({ scope, name: slice.name, points: slice.samples.length, first: slice.startTime }).toEqual({ scope, name: slice.name, points: inWindow.length, first: expect.closeTo(inWindow[0] as number, 9) });
      });
    }
    // The laps' reads, one after the other, are the whole file's.
    const { file, reads, info } = await reader();
    const laps = await Promise.all([0, 1].map((lapIndex) => reads.slices(names.map(info), resolveScope({ mode: 'lap', lapIndex }, file), new AbortController().signal)));
    names.forEach((name, c) => expect({ name, points: (laps[0]?.[c]?.samples.length ?? 0) + (laps[1]?.[c]?.samples.length ?? 0) }).toEqual({ name, points: whole[c]?.samples.length }));
  });

  test('when a read is evaluated into scratch arrays, then it takes no more samples than READ_SAMPLE_BUDGET counts of it', async () => {
    for (const scope of [late, { mode: 'lap', lapIndex: 0 }, { mode: 'lap', lapIndex: 1 }, { mode: 'window', start: 3.995, duration: 0.011 }, { mode: 'file' }] as ReadScope[]) {
      for (const name of [...definitions.keys()]) {
        const { file, reads, info } = await reader();
        const window = resolveScope(scope, file);
        const { tasks, at } = await reads.tasks([info(name)], window, new AbortController().signal);
        let taken = 0;
        withMathChannels({ channels: at.map((evaluated) => ({ evaluated })), math: tasks, binary: true }, { take: (n) => ((taken += n), new Float64Array(n)), release: () => undefined });
        const decoded = tasks.reduce((n, t) => n + t.inputs.reduce((m, s) => m + s.samples.length, 0) + (t.distance ? t.distance.slice.samples.length : 0), 0);
        expect({ scope, name, within: decoded + taken <= reads.decodes(info(name), window) }).toEqual({ scope, name, within: true });
      }
    }
  });
});
