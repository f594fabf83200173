import type { Piscina } from 'piscina';
import { resolveScope, StoredChannelCache, type ChannelInfo, type StoredChannel } from '@pitwall/formats';
import type { OpenDataset } from '../../src/domain/datasets';
import type { MathDefinition } from '../../src/domain/math-definitions';
import { NO_REACH } from '@pitwall/expressions';
import { baseContext } from '../../src/domain/math-context';
import { timeAxis } from '../../src/domain/read-channels';
import { baseOf, MATH_TASKS_PER_READ, mathReads, resolveMathChannels, timeBaseGroups, type MathChannelInfo } from '../../src/domain/read-math-channels';
import { evaluateMathChannels, withMathChannels, type MathTask } from '../../src/workers/math-channels';
import { ScratchArrays } from '../../src/workers/scratch-arrays';
import type { StoredSlice } from '../../src/workers/shape-channels';

/**
 * A batch of math channels is evaluated one pool task per time base, each definition and input of a base once; each
 * channel's numbers are those of reading it alone. The pool here runs the worker's function in-process and records the
 * tasks it is given.
 */

const LAPS = [
  { index: 0, startTime: 0, endTime: 3.05, kind: 'out' },
  { index: 1, startTime: 3.05, endTime: 7.5, kind: 'flying' },
  { index: 2, startTime: 7.5, endTime: 10, kind: 'in' },
];

function info(name: string, unit: string, frequency: number, sampleCount: number, regular = true): ChannelInfo {
  return { name, unit, frequency, regular, sampleCount, dimension: 1, dataType: 'int16' };
}

/** Speed (km/h, int16 codes at 0.1, gaps) at 100 Hz, Throttle (%) at 10 Hz from 0.05 s, RPM at about 20 Hz with times of its own. */
function storedChannels(): Map<string, StoredChannel> {
  const speed = new Int16Array(1000).map((_, i) => Math.round(1000 + 800 * Math.sin(i / 70) + ((i * 37) % 11)));
  const gaps = new Uint8Array(1000);
  gaps.fill(1, 412, 420);
  gaps[777] = 1;
  const throttle = new Float64Array(100).map((_, i) => 50 + 45 * Math.cos(i / 9));
  const rpmTimes = new Float64Array(200).map((_, i) => 0.013 + i * 0.05 + (i % 3) * 0.007);
  const rpm = new Float32Array(200).map((_, i) => 4000 + 3000 * Math.sin(i / 13));
  return new Map<string, StoredChannel>([
    ['Speed', { name: 'Speed', unit: 'km/h', frequency: 100, dimension: 1, time: { kind: 'implicit', start: 0, frequency: 100 }, samples: speed, conversion: { numerator: 1, denominator: 10, offset: 0 }, gaps }],
    ['Throttle', { name: 'Throttle', unit: '%', frequency: 10, dimension: 1, time: { kind: 'implicit', start: 0.05, frequency: 10 }, samples: throttle, conversion: { numerator: 1, denominator: 1, offset: 0 } }],
    ['RPM', { name: 'RPM', unit: 'rpm', frequency: 20, dimension: 1, time: { kind: 'explicit', timestamps: rpmTimes }, samples: rpm, conversion: { numerator: 1, denominator: 1, offset: 0 } }],
  ]);
}

function dataset(): OpenDataset {
  const stored = storedChannels();
  const file = {
    format: 'csv',
    properties: {},
    startTime: 0,
    duration: 10,
    laps: LAPS,
    channels: [info('Speed', 'km/h', 100, 1000), info('Throttle', '%', 10, 100), info('RPM', 'rpm', 20, 200, false)],
    readStored: async (name: string) => stored.get(name) as StoredChannel,
  };
  return { file: file as unknown as OpenDataset['file'], contentKey: `batches-${Math.random()}` };
}

const definitions = (entries: [string, string, number?][]) => new Map<string, MathDefinition>(entries.map(([name, expression, rate]) => [name, { name, expression, unit: 'u', ...(rate ? { rate } : {}) }]));

/** A workbook of layered channels: a chain on Speed's base, lap inputs, Rates (one reading no channel), other bases. */
const WORKBOOK = definitions([
  ['Speed ms', '"Speed" / 3.6'],
  ['Accel', 'derivative("Speed ms")'],
  ['Power', '"Speed ms" * Accel * Throttle'],
  ['Smooth power', 'smooth(Power, 0.5) + integral(Accel)'],
  ['Lap pace', 'lapDistance() / max(lapTime(), 1) + "Speed ms" * 0'],
  ['Power again', 'Power + 1'],
  ['Since lap', 'lapTime()', 50],
  ['Power 50', 'lowpass(Power, 5)', 50],
  ['Throttle x2', 'Throttle * 2'],
  ['Throttle rpm', 'Throttle + RPM / 100'],
  ['Accel 10', 'Accel', 10],
  ['Accel 10 too', 'Accel * 2', 10],
]);

function inProcessPool() {
  const tasks: MathTask[] = [];
  let running = 0;
  const most = { running: 0 };
  const pool = {
    async run(task: MathTask, options: { signal?: AbortSignal }) {
      options.signal?.throwIfAborted();
      tasks.push(task);
      most.running = Math.max(most.running, ++running);
      try {
        await new Promise((resolve) => setImmediate(resolve)); // as a pool answers: later
        return evaluateMathChannels(task);
      } finally {
        running--;
      }
    },
  };
  return { tasks, most, pool: pool as unknown as Piscina };
}

function readsOf(defs: ReadonlyMap<string, MathDefinition>, names: string[]) {
  const data = dataset();
  const infos = resolveMathChannels(data.file, names, defs, (i) => `channels[${i}]`);
  const { tasks, most, pool } = inProcessPool();
  const reads = mathReads(data, infos, { cache: new StoredChannelCache(1e8), pool });
  return { reads, tasks, most, infos: names.map((n) => infos.get(n) as MathChannelInfo), file: data.file };
}

/** The slice as numbers compared bit for bit (Object.is: NaN is NaN, -0 is not 0). */
function bits(slice: StoredSlice) {
  const exact = (a: ArrayLike<number> | undefined) => a && Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));
  return { ...slice, samples: exact(slice.samples), times: exact(slice.times), gaps: slice.gaps && Array.from(slice.gaps) };
}

describe('a batch of math channels', () => {
  const names = [...WORKBOOK.keys()];

  test.each([
    ['the whole file', { mode: 'file' as const }],
    ['a lap', { mode: 'lap' as const, lapIndex: 1 }],
    ['a window', { mode: 'window' as const, start: 2.013, duration: 4.5 }],
  ])('when a layered workbook is read over %s, then each channel has the numbers of reading it alone', async (_, scope) => {
    const batch = readsOf(WORKBOOK, names);
    const window = resolveScope(scope, batch.file);
    const together = await batch.reads.slices(batch.infos, window, new AbortController().signal);
    for (const [i, name] of names.entries()) {
      const alone = readsOf(WORKBOOK, [name]);
      const expected = await alone.reads.slice(alone.infos[0] as MathChannelInfo, window, new AbortController().signal);
      expect(bits(together[i] as StoredSlice)).toEqual(bits(expected));
    }
  });

  test('when a layered workbook is evaluated in the read\'s shaping task, into scratch arrays reused across reads of other windows, then each channel has the numbers of its slice evaluated alone', async () => {
    // DecimalPlaces on two of them: their codes are written over the lent arrays.
    const workbook = new Map([...WORKBOOK].map(([name, d]) => [name, name === 'Power' || name === 'Accel 10' ? { ...d, decimalPlaces: 2 } : d]));
    const scratch = new ScratchArrays(64 * 1024 * 1024);
    // Memory lent before holds what the last task left there: here, a number no result has.
    const poisoned = scratch.lend();
    for (let i = 0; i < 12; i++) poisoned.take(2000 + i * 97).fill(-98765.5);
    poisoned.giveBack();
    for (const scope of [{ mode: 'file' as const }, { mode: 'window' as const, start: 2.013, duration: 4.5 }, { mode: 'lap' as const, lapIndex: 2 }, { mode: 'file' as const }]) {
      const batch = readsOf(workbook, names);
      const window = resolveScope(scope, batch.file);
      const { tasks, at } = await batch.reads.tasks(batch.infos, window, new AbortController().signal);
      const lease = scratch.lend();
      const shaped = withMathChannels({ channels: at.map((evaluated) => ({ evaluated })), math: tasks, binary: true }, lease);
      const expected = await readsOf(workbook, names).reads.slices(batch.infos, window, new AbortController().signal);
      expect(shaped.channels.map((c) => bits(c as StoredSlice))).toEqual(expected.map(bits));
      lease.giveBack();
    }
    expect(scratch.kept).toBeGreaterThan(0);
  });

  test('when a chain of definitions, each the min of many integrals of the one before, is evaluated into scratch arrays, then a few arrays are lent at once, and no more samples than READ_SAMPLE_BUDGET counts of it', async () => {
    const integrals = (of: string) => `min(${Array.from({ length: 60 }, () => `integral(${of})`).join(', ')})`;
    const chain = definitions([
      ['c1', integrals('Speed')],
      ['c2', integrals('c1')],
      ['c3', integrals('c2')],
      ['c4', `${integrals('c3')} + lapTime()`],
    ]);
    const scratch = new ScratchArrays(64 * 1024 * 1024);
    for (const scope of [{ mode: 'file' as const }, { mode: 'lap' as const, lapIndex: 1 }]) {
      const { reads, infos, file } = readsOf(chain, ['c4']);
      const window = resolveScope(scope, file);
      const { tasks, at } = await reads.tasks(infos, window, new AbortController().signal);
      const lease = scratch.lend();
      const lent = new Set<Float64Array>();
      const counts = { samples: 0, most: 0 };
      const shaped = withMathChannels(
        { channels: at.map((evaluated) => ({ evaluated })), math: tasks, binary: true },
        {
          take: (length) => {
            const array = lease.take(length);
            lent.add(array);
            counts.samples += length;
            counts.most = Math.max(counts.most, lent.size);
            return array;
          },
          release: (array) => {
            lent.delete(array);
            lease.release(array);
          },
        },
      );
      // Held at once: a result being read (the one before), a series, the running minimum, the result being made.
      expect({ scope, most: counts.most }).toEqual({ scope, most: 4 });
      // What is lent is within the count: Speed's samples, and its base's for the times, lapTime() and 4 × 62 arrays (60
      // series, the running minimum, the result) with 4 × 7 for their work (61 operations each, 63 in c4: one array for
      // each 8), the base counted whole in a lap too (the file decodes Speed whole; the integrals run from the file's
      // start), and in a lap the lap's own samples once more (copied out of the whole).
      const counted = reads.decodes(infos[0] as MathChannelInfo, window);
      expect({ scope, counted }).toEqual({ scope, counted: 1000 + 1000 * (2 + 4 * (62 + 7)) + (scope.mode === 'lap' ? 1000 : 0) });
      expect(counts.samples).toBeLessThanOrEqual(counted - 1000);
      // And the numbers are those of the task run alone on new arrays.
      expect(bits(shaped.channels[0] as StoredSlice)).toEqual(bits(evaluateMathChannels(tasks[0] as MathTask)[0] as StoredSlice));
      lease.giveBack();
    }
  });

  test('when a layered workbook is read, then there is one pool task per time base, each definition and input of a base sent once, MATH_TASKS_PER_READ at a time', async () => {
    const { reads, tasks, most, infos, file } = readsOf(WORKBOOK, names);
    await reads.slices(infos, resolveScope({ mode: 'file' }, file), new AbortController().signal);
    expect(most.running).toBe(MATH_TASKS_PER_READ);
    const sent = tasks.map((t) => ({ channels: t.channels.map((c) => c.name), definitions: t.definitions.map((d) => d.name), inputs: t.inputs.map((s) => s.name) }));
    expect(sent).toEqual([
      { channels: ['Speed ms', 'Accel', 'Power', 'Smooth power', 'Lap pace', 'Power again'], definitions: ['Speed ms', 'Accel', 'Power', 'Smooth power', 'Lap pace', 'Power again'], inputs: ['Speed', 'Throttle'] },
      // Rate 50 reading no channel runs over the file's [0, 10); Power 50's grid from its inputs' first sample (0 s) to
      // their last (9.99 s): the same 500 points, one base.
      { channels: ['Since lap', 'Power 50'], definitions: ['Since lap', 'Speed ms', 'Accel', 'Power', 'Power 50'], inputs: ['Speed', 'Throttle'] },
      { channels: ['Throttle x2'], definitions: ['Throttle x2'], inputs: ['Throttle'] },
      { channels: ['Throttle rpm'], definitions: ['Throttle rpm'], inputs: ['Throttle', 'RPM'] },
      { channels: ['Accel 10', 'Accel 10 too'], definitions: ['Speed ms', 'Accel', 'Accel 10', 'Accel 10 too'], inputs: ['Speed'] },
    ]);
  });

  test('when a definition is named e, then the others read it quoted ("e") and the constant bare (e), in one batch as alone', async () => {
    const defs = definitions([
      ['e', '"Speed" + 1'],
      ['Quoted', '"e" * 2'],
      ['Bare', 'e * "Speed"'],
    ]);
    const { reads, tasks, infos, file } = readsOf(defs, ['e', 'Quoted', 'Bare']);
    const window = resolveScope({ mode: 'file' }, file);
    const [e, quoted, bare] = (await reads.slices(infos, window, new AbortController().signal)) as StoredSlice[];
    expect(tasks.map((t) => t.definitions.map((d) => d.name))).toEqual([['e', 'Quoted', 'Bare']]);
    const speed = (k: number) => (storedChannels().get('Speed')?.samples[k] as number) / 10;
    expect([e?.samples[3], quoted?.samples[3], bare?.samples[3]]).toEqual([speed(3) + 1, (speed(3) + 1) * 2, Math.E * speed(3)]);
    for (const [i, name] of ['e', 'Quoted', 'Bare'].entries()) {
      const alone = readsOf(defs, [name]);
      const expected = await alone.reads.slice(alone.infos[0] as MathChannelInfo, window, new AbortController().signal);
      expect(bits([e, quoted, bare][i] as StoredSlice)).toEqual(bits(expected));
    }
  });

  test('when a channel and another reading it are on different time bases, then what they share is evaluated on each base, not passed between them', async () => {
    const { reads, tasks, infos, file } = readsOf(WORKBOOK, ['Accel', 'Accel 10']);
    const [accel, accel10] = await reads.slices(infos, resolveScope({ mode: 'file' }, file), new AbortController().signal);
    expect(tasks.map((t) => t.definitions.map((d) => d.name))).toEqual([
      ['Speed ms', 'Accel'],
      ['Speed ms', 'Accel', 'Accel 10'],
    ]);
    expect([accel?.frequency, accel?.samples.length, accel10?.frequency, accel10?.samples.length]).toEqual([100, 1000, 10, 100]);
    // On its own 10 Hz grid the derivative differs from the 100 Hz one taken at the same times.
    const at = (k: number) => [accel10?.samples[k], accel?.samples[k * 10]];
    expect([1, 2, 3, 4, 5].some((k) => at(k)[0] !== at(k)[1])).toBe(true);
  });

  test('when 3,000 chained channels are read in one batch, then one task evaluates each definition once, and the last has the numbers of reading it alone', async () => {
    const chain = definitions(Array.from({ length: 3000 }, (_, i): [string, string] => [`c${i}`, i ? `c${i - 1} + 1` : 'Speed * 2']));
    const all = [...chain.keys()];
    const { reads, tasks, infos, file } = readsOf(chain, all);
    const window = resolveScope({ mode: 'lap', lapIndex: 2 }, file);
    const slices = await reads.slices(infos, window, new AbortController().signal);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.definitions).toHaveLength(3000);
    expect(tasks[0]?.inputs.map((s) => s.name)).toEqual(['Speed']);
    const alone = readsOf(chain, ['c2999']);
    const last = await alone.reads.slice(alone.infos[0] as MathChannelInfo, window, new AbortController().signal);
    expect(bits(slices[2999] as StoredSlice)).toEqual(bits(last));
    expect(slices[0]?.samples[0]).toBeCloseTo(((storedChannels().get('Speed')?.samples[750] as number) / 10) * 2, 9);
  });

  test('when the read is aborted, then no task runs and the batch rejects with its reason', async () => {
    const { reads, tasks, infos, file } = readsOf(WORKBOOK, names);
    const abort = new AbortController();
    abort.abort(new Error('the read did not finish in time'));
    await expect(reads.slices(infos, resolveScope({ mode: 'file' }, file), abort.signal)).rejects.toThrow('the read did not finish in time');
    expect(tasks).toHaveLength(0);
  });

  test('when one base fails on the pool, then the batch rejects with its error and the other bases are told to stop', async () => {
    const data = dataset();
    const infos = resolveMathChannels(data.file, ['Speed ms', 'Throttle x2'], WORKBOOK, (i) => `channels[${i}]`);
    const signals: AbortSignal[] = [];
    const pool = {
      run(task: MathTask, options: { signal: AbortSignal }) {
        signals.push(options.signal);
        if (task.channels[0]?.name === 'Speed ms') return Promise.reject(new Error('worker failed'));
        return new Promise((_, reject) => options.signal.addEventListener('abort', () => reject(options.signal.reason), { once: true }));
      },
    } as unknown as Piscina;
    const reads = mathReads(data, infos, { cache: new StoredChannelCache(1e8), pool });
    await expect(reads.slices([...infos.values()], resolveScope({ mode: 'file' }, data.file), new AbortController().signal)).rejects.toThrow('worker failed');
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });
});

describe('timeBaseGroups', () => {
  const { file } = dataset();
  /** Each channel's base over the whole file, its inputs at these times (as a read plans it: baseContext). */
  const view = (axes: Record<string, { startTime: number; frequency: number; n: number }>) => (info: MathChannelInfo) =>
    baseContext(file, baseOf(info.math), NO_REACH, { whole: true }, (leaf: ChannelInfo) => {
      const { startTime, frequency, n } = axes[leaf.name] ?? { startTime: 0, frequency: leaf.frequency, n: leaf.sampleCount };
      return timeAxis({ kind: 'implicit', start: startTime, frequency }, n);
    });
  const regular = (startTime: number, frequency: number, n: number) => ({ startTime, frequency, n });

  test('when channels with a Rate read inputs whose first or last samples differ, then they are on different bases; the same bounds share one', () => {
    const defs = definitions([
      ['A', 'Speed', 10],
      ['B', 'Throttle', 10],
      ['C', 'Speed + Throttle', 10],
      ['D', 'Speed', 20],
      ['E', 'Speed * 2', 10],
    ]);
    const infos = [...resolveMathChannels(file, ['A', 'B', 'C', 'D', 'E'], defs, () => 'channels').values()];
    // Throttle from 0.05 s to 10.05 s: C's grid starts with A's and ends after it, B's starts after it.
    const groups = timeBaseGroups(infos, view({ Speed: regular(0, 100, 1000), Throttle: regular(0.05, 10, 101) }));
    expect(groups.map((g) => [g.channels.map((c) => c.name), g.rate])).toEqual([
      [['A', 'E'], 10],
      [['B'], 10],
      [['C'], 10],
      [['D'], 20],
    ]);
    // Throttle starting with Speed and ending before it: C's grid is then A's.
    const same = timeBaseGroups(infos, view({ Speed: regular(0, 100, 1000), Throttle: regular(0, 10, 50) }));
    expect(same.map((g) => g.channels.map((c) => c.name))).toEqual([['A', 'C', 'E'], ['B'], ['D']]);
  });

  test('when channels without a Rate read different fastest inputs, then they are on different bases, and the first of two equally fast inputs is the base', () => {
    const defs = definitions([
      ['A', 'Speed + Throttle'],
      ['B', 'Throttle'],
      ['C', 'Throttle + Speed'],
      ['D', 'Throttle + "Other 10"'],
      ['E', '"Other 10" + Throttle'],
    ]);
    const withOther = { ...file, channels: [...file.channels, info('Other 10', '', 10, 100)] } as OpenDataset['file'];
    const infos = [...resolveMathChannels(withOther, ['A', 'B', 'C', 'D', 'E'], defs, () => 'channels').values()];
    const groups = timeBaseGroups(infos, view({}));
    expect(groups.map((g) => [g.channels.map((c) => c.name), g.baseInput])).toEqual([
      [['A', 'C'], 'Speed'],
      [['B', 'D'], 'Throttle'],
      [['E'], 'Other 10'],
    ]);
  });

  test('when the channels of a base share definitions, then each is sent once, after every definition it reads', () => {
    const defs = definitions([
      ['x', 'Speed * 2'],
      ['y', 'x + 1'],
      ['z', 'y + x'],
      ['w', 'Speed - 1'],
      ['v', 'w + z'],
    ]);
    const infos = [...resolveMathChannels(file, ['z', 'v', 'y'], defs, () => 'channels').values()];
    const [group] = timeBaseGroups(infos, view({}));
    expect(group?.definitions.map((d) => d.name)).toEqual(['x', 'y', 'z', 'w', 'v']);
    expect(group?.channels.map((c) => c.name)).toEqual(['z', 'v', 'y']);
  });
});
