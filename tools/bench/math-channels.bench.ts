// Issue 40 item 1 (math channels), goals recorded, not asserted:
//   - a three-input expression over a one-hour 100 Hz file (360,000 samples) evaluates at >= 50 million samples/s
//     on one core, warm (compile + evaluate; samples counted at the output, inputs already physical and on one base);
//   - a math channel read costs <= 2x a logged channel read of the same length. Measured here as the pool work of
//     a read, in one process on one core: the logged read shapes and encodes one stored slice (binary, and JSON);
//     the math read evaluates (conversion, resampling onto the fastest input's base, the expression) and then shapes
//     and encodes its result the same way. The file reads before (the same stored channels, from the channel cache
//     when warm) and the bus hop after are common to both and left out.
// Then the same reads through the gateway of the five-process stack (BENCH_MATH_STACK=0 skips it; the apps run from
// dist/, so build first): a one-hour .ld uploaded to a run sheet, the math channels defined through the API, window
// reads of a logged channel and of math channels of the same length, one request at a time, in turn: answers no cache
// holds (each window starts elsewhere), and the same request again (the gateway's held answer, the service's word).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { compile } from '@pitwall/expressions';
import { evaluateMathChannel, withMathChannels, type MathChannelTask, type MathTask } from '../../apps/datafile-service/src/workers/math-channels';
import { DEFAULT_SCRATCH_BYTES, ScratchArrays } from '../../apps/datafile-service/src/workers/scratch-arrays';
import { shapeChannels, shapedChunks, type ShapeTask, type StoredSlice } from '../../apps/datafile-service/src/workers/shape-channels';
import { generateLdFile } from '../gen-ld/gen-ld';
import { createBenchRunSheet, runBench, startBenchStack, uploadDataFile, type BenchStack } from './stack-fixture';

const RATE = 100;
const N = 3600 * RATE;
const RUNS = Number(process.env['BENCH_MATH_RUNS'] ?? 30);
const STACK_RUNS = Number(process.env['BENCH_MATH_STACK_RUNS'] ?? 20);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
function time(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
function runs(fn: () => unknown): number {
  for (let i = 0; i < 5; i++) fn(); // warm
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push(time(fn));
  return median(ms);
}

/** int16 raw codes with a linear conversion, as a .ld channel is stored. */
function slice(name: string, rate: number, seconds: number, f: (t: number) => number): StoredSlice {
  const n = Math.round(seconds * rate);
  const samples = new Int16Array(n);
  for (let i = 0; i < n; i++) samples[i] = Math.round(f(i / rate) * 10);
  return { name, unit: '', frequency: rate, dimension: 1, startTime: 0, samples, conversion: { numerator: 1, denominator: 10, offset: 0 } };
}
const copy = (s: StoredSlice): StoredSlice => ({ ...s, samples: s.samples.slice() });

console.log(`node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

// 1. The evaluator alone: three physical inputs on one base.
const a = Float64Array.from({ length: N }, (_, i) => 100 + 50 * Math.sin(i / 1000));
const b = Float64Array.from({ length: N }, (_, i) => (i % 1000) / 10);
const c = Float64Array.from({ length: N }, (_, i) => Math.cos(i / 300));
const expression = '"Ground Speed" / 3.6 * Throttle / 100 + abs(Steer) * 2';
const evalMs = runs(() => compile(expression, { inputs: ['Ground Speed', 'Throttle', 'Steer'], math: true }).evaluate({ 'Ground Speed': a, Throttle: b, Steer: c }));
console.log(`evaluate ${expression} over ${N.toLocaleString()} samples, into a new array each time: ${evalMs.toFixed(2)} ms median = ${(N / evalMs / 1e3).toFixed(1)} M samples/s out (${((3 * N) / evalMs / 1e3).toFixed(1)} M input samples/s)`);
// As a read evaluates (since the math channels are evaluated in the read's shaping task): into the pool worker's
// scratch arrays, lent to each task and given back at its end.
const scratch = new ScratchArrays(DEFAULT_SCRATCH_BYTES);
const evalScratchMs = runs(() => {
  const lease = scratch.lend();
  compile(expression, { inputs: ['Ground Speed', 'Throttle', 'Steer'], math: true }).evaluate({ 'Ground Speed': a, Throttle: b, Steer: c }, undefined, {}, { allocate: lease.take });
  lease.giveBack();
});
console.log(`evaluate it into the pool worker's scratch arrays (as a read does): ${evalScratchMs.toFixed(2)} ms median = ${(N / evalScratchMs / 1e3).toFixed(1)} M samples/s out; goal >= 50 M samples/s`);
const timeFns = 'smooth("Ground Speed", 0.5) + lowpass(Throttle, 5) + derivative(Steer)';
const time0 = Float64Array.from({ length: N }, (_, i) => i / RATE);
const timeMs = runs(() => compile(timeFns, { inputs: ['Ground Speed', 'Throttle', 'Steer'], math: true }).evaluate({ 'Ground Speed': a, Throttle: b, Steer: c }, undefined, { time: time0 }));
console.log(`evaluate ${timeFns}: ${timeMs.toFixed(2)} ms median = ${(N / timeMs / 1e3).toFixed(1)} M samples/s out (reported)`);

// 2. The pool work of a read: logged against math, same length (one hour at 100 Hz).
const speed = slice('Ground Speed', RATE, 3600, (t) => 100 + 50 * Math.sin(t / 10));
const throttle = slice('Throttle', RATE, 3600, (t) => (t * 10) % 100);
const steer = slice('Steer', 50, 3600, (t) => 30 * Math.cos(t / 3));
const mathTask = (inputs: StoredSlice[], e: string, decimalPlaces?: number): MathChannelTask => ({ name: 'm', unit: '', definitions: [{ name: 'm', expression: e, ...(decimalPlaces !== undefined ? { decimalPlaces } : {}) }], inputs: inputs.map(copy), span: { start: 0, end: 3600 } });
const evalOne = runs(() => evaluateMathChannel(mathTask([speed], '"Ground Speed" / 3.6')));
const evalThree = runs(() => evaluateMathChannel(mathTask([speed, throttle, steer], expression)));
console.log(`math pool task alone (copy of the inputs, conversion, resampling, evaluation, gap mask): 1 input ${evalOne.toFixed(2)} ms; 3 inputs ${evalThree.toFixed(2)} ms`);
const computed = evaluateMathChannel(mathTask([speed, throttle, steer], expression));
// A logged channel stored as float64 physical values (an MDF double), the width a math channel's values have.
const speed64: StoredSlice = { ...speed, samples: Float64Array.from(speed.samples, (v) => v / 10), conversion: { numerator: 1, denominator: 1, offset: 0 } };
for (const binary of [true, false]) {
  const kind = binary ? 'binary' : 'JSON';
  const bytes = (c: StoredSlice) => shapeChannels({ channels: [c], binary }).body.length;
  const logged = runs(() => shapeChannels({ channels: [copy(speed)], binary }));
  const one = runs(() => shapeChannels({ channels: [evaluateMathChannel(mathTask([speed], '"Ground Speed" / 3.6'))], binary }));
  const three = runs(() => shapeChannels({ channels: [evaluateMathChannel(mathTask([speed, throttle, steer], expression))], binary }));
  // The floor of a math read: its float64 result already computed, only shaped and encoded.
  const floor = runs(() => shapeChannels({ channels: [{ ...computed, samples: computed.samples.slice() }], binary }));
  console.log(`${kind} read of ${N.toLocaleString()} samples: logged ${logged.toFixed(2)} ms; math of 1 input ${one.toFixed(2)} ms (${(one / logged).toFixed(2)}x); math of 3 inputs (one at 50 Hz, resampled) ${three.toFixed(2)} ms (${(three / logged).toFixed(2)}x); goal <= 2x`);
  const logged64 = runs(() => shapeChannels({ channels: [copy(speed64)], binary }));
  console.log(`${kind} read of a logged float64 channel of the same length: ${logged64.toFixed(2)} ms; math of 1 input ${(one / logged64).toFixed(2)}x, of 3 inputs ${(three / logged64).toFixed(2)}x that`);
  console.log(`${kind} bodies: logged ${bytes(copy(speed)).toLocaleString()} bytes, math of 1 input ${bytes(evaluateMathChannel(mathTask([speed], '"Ground Speed" / 3.6'))).toLocaleString()}, of 3 inputs ${bytes(computed).toLocaleString()}; shaping the 3-input result alone (evaluation free) ${floor.toFixed(2)} ms (${(floor / logged).toFixed(2)}x the logged read)`);
  const maxLogged = runs(() => shapeChannels({ channels: [copy(speed)], binary, maxPoints: 2000 }));
  const maxMath = runs(() => shapeChannels({ channels: [evaluateMathChannel(mathTask([speed, throttle, steer], expression))], binary, maxPoints: 2000 }));
  console.log(`${kind} maxPoints=2000 read: logged ${maxLogged.toFixed(2)} ms; math of 3 inputs ${maxMath.toFixed(2)} ms (${(maxMath / maxLogged).toFixed(2)}x)`);
}

// 3. DecimalPlaces 2 (docs/math-channels.md): the result rounded and sent as int16 codes under 1/100, as a logged .ld
// channel is. Measured on the path a read takes (the body streamed in chunks, shapedChunks: JSON printed by the
// channel-records writer, its decimal path for codes under a decimal scale), logged and full precision beside it: the
// math channel evaluated in the read's shaping task, into the worker's scratch arrays (withMathChannels).
const streamed = (task: ShapeTask) => {
  let n = 0;
  for (const chunk of shapedChunks(task).chunks) n += chunk.byteLength;
  return n;
};
const PLACES = 2;
// A read's shaping task with its math channel (withMathChannels): evaluated into the worker's scratch arrays, then
// streamed; the arrays given back once the last chunk is made.
const shapedMath = (inputs: StoredSlice[], e: string, places: number | undefined, task: Omit<ShapeTask, 'channels'>) => {
  const { name, unit, ...rest } = mathTask(inputs, e, places);
  const math: MathTask = { ...rest, channels: [{ name, unit }] };
  const lease = scratch.lend();
  try {
    return streamed(withMathChannels({ ...task, channels: [{ evaluated: { task: 0, index: 0 } }], math: [math] }, lease));
  } finally {
    lease.giveBack();
  }
};
for (const binary of [true, false]) {
  const kind = binary ? 'binary' : 'JSON';
  const logged = runs(() => streamed({ channels: [copy(speed)], binary }));
  const full = (inputs: StoredSlice[], e: string, places?: number) => runs(() => shapedMath(inputs, e, places, { binary }));
  const one = full([speed], '"Ground Speed" / 3.6');
  const three = full([speed, throttle, steer], expression);
  const oneDp = full([speed], '"Ground Speed" / 3.6', PLACES);
  const threeDp = full([speed, throttle, steer], expression, PLACES);
  const ratio = (ms: number) => `${ms.toFixed(2)} ms (${(ms / logged).toFixed(2)}x)`;
  console.log(`${kind} streamed read of ${N.toLocaleString()} samples: logged ${logged.toFixed(2)} ms; full precision: math of 1 input ${ratio(one)}, of 3 inputs ${ratio(three)}; DecimalPlaces ${PLACES}: math of 1 input ${ratio(oneDp)}, of 3 inputs ${ratio(threeDp)}; goal <= 2x`);
  const bytes = (inputs: StoredSlice[], e: string, places?: number) => shapedMath(inputs, e, places, { binary }).toLocaleString();
  console.log(`${kind} streamed bodies: logged ${streamed({ channels: [copy(speed)], binary }).toLocaleString()} bytes; full precision 1 input ${bytes([speed], '"Ground Speed" / 3.6')}, 3 inputs ${bytes([speed, throttle, steer], expression)}; DecimalPlaces ${PLACES} 1 input ${bytes([speed], '"Ground Speed" / 3.6', PLACES)}, 3 inputs ${bytes([speed, throttle, steer], expression, PLACES)}`);
  const maxDp = runs(() => shapedMath([speed, throttle, steer], expression, PLACES, { binary, maxPoints: 2000 }));
  const maxLogged = runs(() => streamed({ channels: [copy(speed)], binary, maxPoints: 2000 }));
  console.log(`${kind} streamed maxPoints=2000 read: logged ${maxLogged.toFixed(2)} ms; math of 3 inputs with DecimalPlaces ${PLACES} ${maxDp.toFixed(2)} ms (${(maxDp / maxLogged).toFixed(2)}x)`);
}
const evalDp = runs(() => evaluateMathChannel(mathTask([speed, throttle, steer], expression, PLACES)));
console.log(`math pool task alone with DecimalPlaces ${PLACES} (the rounding and the int16 codes added): 3 inputs ${evalDp.toFixed(2)} ms (${evalThree.toFixed(2)} ms without)`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average after: ${load()}`);

// 4. Through the five-process stack.
const BINARY = 'application/x-service-channels';
/** The window every read asks for: 350,000 samples at 100 Hz, the logged channel's and the math channels' alike. */
const WINDOW_S = 3500;
/** Window starts step by a quarter second (25 samples at 100 Hz; exact in binary, so no start falls between two samples). */
const START_STEP_S = 0.25;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One GET through the gateway on a kept-alive socket: its time to the response head and to the last byte, and its
 * bytes (counted, not kept; `keep` keeps them). A binary answer's head comes once the pool began its body (its
 * length known: after the evaluation of a math channel), so the head parts the read's fixed path and its work from
 * the carrying of its bytes. The bench's own garbage is collected first, outside the timed window (as bulk.bench.ts does:
 * a major collection of the last answer's copies during a read takes the cores from the stack).
 */
async function timedGet(url: string, headers: Record<string, string>, keep = false): Promise<{ ms: number; headMs: number; bytes: number; body?: Buffer }> {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 25));
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const headMs = performance.now() - t;
      let bytes = 0;
      const kept: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep || res.statusCode !== 200) kept.push(c);
      });
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}: ${Buffer.concat(kept).toString().slice(0, 300)}`));
        resolve({ ms: performance.now() - t, headMs, bytes, ...(keep ? { body: Buffer.concat(kept) } : {}) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

interface StackCase {
  label: string;
  channel: string;
  /** The math channel's definition; none for the logged channel. */
  definition?: { expression: string; unit?: string; decimalPlaces?: number };
}
const ONE_INPUT = '"Ground Speed" / 3.6';
const STACK_CASES: StackCase[] = [
  { label: 'logged Ground Speed', channel: 'Ground Speed' },
  { label: 'math, 1 input', channel: 'Speed ms', definition: { expression: ONE_INPUT, unit: 'm/s' } },
  { label: `math, 1 input, DecimalPlaces ${PLACES}`, channel: 'Speed ms dp', definition: { expression: ONE_INPUT, unit: 'm/s', decimalPlaces: PLACES } },
  { label: 'math, 3 inputs', channel: 'Drive', definition: { expression } },
  { label: `math, 3 inputs, DecimalPlaces ${PLACES}`, channel: 'Drive dp', definition: { expression, decimalPlaces: PLACES } },
];

/** `xs` turned left by `by`: each round puts every case at another place of its order. */
const rotated = <T>(xs: readonly T[], by: number): T[] => xs.map((_, i) => xs[(i + by) % xs.length] as T);

async function throughTheStack(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pitwall-bench-math-'));
  let stack: BenchStack | undefined;
  try {
    const ld = path.join(dir, 'math.ld');
    // Lap Number, Ground Speed, Gyro Yaw Velocity and Throttle at 100 Hz (but the laps' 10 Hz), Steer at 50 Hz; one hour.
    const gen = generateLdFile(ld, { duration: 3600, rates: [], driverChannels: true });
    console.log(`\nthrough the five-process stack: generated a ${(gen.bytes / 1e6).toFixed(1)} MB .ld (${gen.channels} channels, one hour), load average ${load()}`);
    stack = await startBenchStack({ env: { DATA_DIR: path.join(dir, 'data'), BUS_TIMEOUT_MS: '60000' } });
    const s = stack;
    const runSheet = await createBenchRunSheet(s);
    await uploadDataFile(s, runSheet, ld, { fileName: 'math.ld', compressed: false });
    for (const c of STACK_CASES) {
      if (!c.definition) continue;
      const { expression: e, unit, decimalPlaces } = c.definition;
      await s.create('MathChannels', {}, { Name: c.channel, Expression: e, ...(unit ? { Unit: unit } : {}), ...(decimalPlaces !== undefined ? { DecimalPlaces: String(decimalPlaces) } : {}) });
    }
    const dataset = `${s.baseUrl}/RunSheets/${runSheet}/DataFileAccess/DataFile`;
    const meta = (await (await fetch(`${dataset}/metadata`, { headers: s.headers })).json()) as { channels: { name: string; frequency: number }[] };
    for (const c of STACK_CASES) {
      const listed = meta.channels.find((m) => m.name === c.channel);
      if (listed?.frequency !== RATE) throw new Error(`the metadata lists ${c.channel} ${listed ? `at ${listed.frequency} Hz` : 'not at all'}, not at ${RATE} Hz`);
    }
    const url = (c: StackCase, start: number) => `${dataset}/channel?channel=${encodeURIComponent(c.channel)}&start=${start}&duration=${WINDOW_S}`;
    const headersOf = (binary: boolean) => (binary ? { ...s.headers, Accept: BINARY } : s.headers);

    // Every case's window is as long as the logged channel's (the JSON records counted once, off the clock); the
    // first reads also load the stored channels into the service's cache, as any warm read finds them.
    for (const c of STACK_CASES) {
      const r = await timedGet(url(c, 0), s.headers, true);
      const samples = (JSON.parse((r.body as Buffer).toString()) as { samples: unknown[] }).samples.length;
      if (samples !== WINDOW_S * RATE) throw new Error(`${c.channel}: ${samples} samples in the window, not ${WINDOW_S * RATE}`);
    }

    type Times = { ms: number[]; headMs: number[]; bytes: number };
    const results = new Map<string, Times>();
    const record = (phase: string, c: StackCase, binary: boolean, r: { ms: number; headMs: number; bytes: number }) => {
      const key = `${phase}|${binary}|${c.channel}`;
      const t = results.get(key) ?? { ms: [], headMs: [], bytes: r.bytes };
      t.ms.push(r.ms);
      t.headMs.push(r.headMs);
      t.bytes = r.bytes;
      results.set(key, t);
    };
    const WARM = 3;
    // Uncached: each round's windows start START_STEP_S later than the last round's (one start per round and
    // format, shared by the cases), so neither the datafile-service's result cache nor the gateway's held answers
    // have any; the cases in turn, each round in another order, binary first in one round and JSON in the next.
    let startIndex = 1;
    for (let round = 0; round < WARM + STACK_RUNS; round++) {
      for (const binary of round % 2 ? [false, true] : [true, false]) {
        const start = startIndex++ * START_STEP_S;
        for (const c of rotated(STACK_CASES, round)) {
          const r = await timedGet(url(c, start), headersOf(binary));
          if (round >= WARM) record('uncached', c, binary, r);
        }
      }
    }
    if ((startIndex - 1) * START_STEP_S + WINDOW_S > 3600) throw new Error('the windows ran past the file: fewer runs or a smaller step');
    const afterUncached = load();
    // Repeated: one window (a start no round used), read again and again; after its first fetch the gateway holds
    // each answer and sends it when the datafile-service says the same request's answer is unchanged.
    const repeatedStart = startIndex * START_STEP_S;
    for (let round = 0; round < WARM + STACK_RUNS; round++) {
      for (const binary of round % 2 ? [false, true] : [true, false]) {
        for (const c of rotated(STACK_CASES, round)) {
          const r = await timedGet(url(c, repeatedStart), headersOf(binary));
          if (round >= WARM) record('repeated', c, binary, r);
        }
      }
    }

    const phases: [string, string][] = [
      ['uncached', `answers no cache holds (a window starting elsewhere each round; load average after ${afterUncached})`],
      ['repeated', `the same request again (the gateway's held answer; load average after ${load()})`],
    ];
    for (const [phase, title] of phases) {
      console.log(`\nstack, window reads of ${(WINDOW_S * RATE).toLocaleString()} samples through the gateway, one at a time, p50 of ${STACK_RUNS} each after ${WARM} warm rounds: ${title}`);
      for (const binary of [true, false]) {
        const logged = results.get(`${phase}|${binary}|${STACK_CASES[0]?.channel}`) as Times;
        const rows = STACK_CASES.map((c) => {
          const t = results.get(`${phase}|${binary}|${c.channel}`) as Times;
          const p50 = median(t.ms);
          const ratio = c.definition ? ` (${(p50 / median(logged.ms)).toFixed(2)}x)` : '';
          return `${c.label} ${p50.toFixed(1)} ms${ratio} (head at ${median(t.headMs).toFixed(1)}), ${t.bytes.toLocaleString()} bytes`;
        });
        console.log(`  ${binary ? 'binary' : 'JSON'}: ${rows.join('; ')}; goal <= 2x`);
      }
    }
  } finally {
    agent.destroy();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env['BENCH_MATH_STACK'] !== '0') runBench(throughTheStack);
