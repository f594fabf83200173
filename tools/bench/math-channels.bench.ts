// Issue 40 item 1 (math channels), goals recorded, not asserted:
//   - a three-input expression over a one-hour 100 Hz file (360,000 samples) evaluates at >= 50 million samples/s
//     on one core, warm (compile + evaluate; samples counted at the output, inputs already physical and on one base);
//   - a math channel read costs <= 2x a logged channel read of the same length. Measured here as the pool work of
//     a read, in one process on one core: the logged read shapes and encodes one stored slice (binary, and JSON);
//     the math read evaluates (conversion, resampling onto the fastest input's base, the expression) and then shapes
//     and encodes its result the same way. The file reads before (the same stored channels, from the channel cache
//     when warm) and the bus hop after are common to both and left out.
import { loadavg } from 'node:os';
import { compile } from '@pitwall/expressions';
import { evaluateMathChannel, type MathChannelTask } from '../../apps/datafile-service/src/workers/math-channels';
import { shapeChannels, shapedChunks, type ShapeTask, type StoredSlice } from '../../apps/datafile-service/src/workers/shape-channels';

const RATE = 100;
const N = 3600 * RATE;
const RUNS = Number(process.env['BENCH_MATH_RUNS'] ?? 30);

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
console.log(`evaluate ${expression} over ${N.toLocaleString()} samples: ${evalMs.toFixed(2)} ms median = ${(N / evalMs / 1e3).toFixed(1)} M samples/s out (${((3 * N) / evalMs / 1e3).toFixed(1)} M input samples/s); goal >= 50 M samples/s`);
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
// channel-records writer, its decimal path for codes under a decimal scale), logged and full precision beside it.
const streamed = (task: ShapeTask) => {
  let n = 0;
  for (const chunk of shapedChunks(task).chunks) n += chunk.byteLength;
  return n;
};
const PLACES = 2;
for (const binary of [true, false]) {
  const kind = binary ? 'binary' : 'JSON';
  const logged = runs(() => streamed({ channels: [copy(speed)], binary }));
  const full = (inputs: StoredSlice[], e: string, places?: number) => runs(() => streamed({ channels: [evaluateMathChannel(mathTask(inputs, e, places))], binary }));
  const one = full([speed], '"Ground Speed" / 3.6');
  const three = full([speed, throttle, steer], expression);
  const oneDp = full([speed], '"Ground Speed" / 3.6', PLACES);
  const threeDp = full([speed, throttle, steer], expression, PLACES);
  const ratio = (ms: number) => `${ms.toFixed(2)} ms (${(ms / logged).toFixed(2)}x)`;
  console.log(`${kind} streamed read of ${N.toLocaleString()} samples: logged ${logged.toFixed(2)} ms; full precision: math of 1 input ${ratio(one)}, of 3 inputs ${ratio(three)}; DecimalPlaces ${PLACES}: math of 1 input ${ratio(oneDp)}, of 3 inputs ${ratio(threeDp)}; goal <= 2x`);
  const bytes = (inputs: StoredSlice[], e: string, places?: number) => streamed({ channels: [evaluateMathChannel(mathTask(inputs, e, places))], binary }).toLocaleString();
  console.log(`${kind} streamed bodies: logged ${streamed({ channels: [copy(speed)], binary }).toLocaleString()} bytes; full precision 1 input ${bytes([speed], '"Ground Speed" / 3.6')}, 3 inputs ${bytes([speed, throttle, steer], expression)}; DecimalPlaces ${PLACES} 1 input ${bytes([speed], '"Ground Speed" / 3.6', PLACES)}, 3 inputs ${bytes([speed, throttle, steer], expression, PLACES)}`);
  const maxDp = runs(() => streamed({ channels: [evaluateMathChannel(mathTask([speed, throttle, steer], expression, PLACES))], binary, maxPoints: 2000 }));
  const maxLogged = runs(() => streamed({ channels: [copy(speed)], binary, maxPoints: 2000 }));
  console.log(`${kind} streamed maxPoints=2000 read: logged ${maxLogged.toFixed(2)} ms; math of 3 inputs with DecimalPlaces ${PLACES} ${maxDp.toFixed(2)} ms (${(maxDp / maxLogged).toFixed(2)}x)`);
}
const evalDp = runs(() => evaluateMathChannel(mathTask([speed, throttle, steer], expression, PLACES)));
console.log(`math pool task alone with DecimalPlaces ${PLACES} (the rounding and the int16 codes added): 3 inputs ${evalDp.toFixed(2)} ms (${evalThree.toFixed(2)} ms without)`);
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
