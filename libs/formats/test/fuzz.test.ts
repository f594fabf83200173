import { seededRandom as mulberry32 } from '@pitwall/random';
import { createDemoLdFile, DataFileError, openDataFile, sliceByWindow } from '../src';
import { buildMdf3File, buildMdf4File, type Mdf4GroupSpec } from '../src/testing';
import { readFixture } from './fixtures';

/**
 * Thousands of mutated and truncated copies of every fixture, from a fixed seed: each must open (and decode) or
 * fail with a DataFileError, and no typed array the readers allocate may exceed a bound derived from the input size.
 */

/** Records the largest typed array the code under test asks for by length (views over existing buffers are free). */
let largestAllocation = 0;
const tracked = [Float64Array, Float32Array, Uint8Array, Int16Array, Int32Array, Uint16Array] as const;
const originals = new Map<string, unknown>();
function installAllocationTracker(): void {
  for (const Base of tracked) {
    const Tracked = class extends (Base as unknown as new (...args: unknown[]) => { byteLength: number }) {
      constructor(...args: unknown[]) {
        if (typeof args[0] === 'number') largestAllocation = Math.max(largestAllocation, args[0] * Base.BYTES_PER_ELEMENT);
        super(...args);
      }
    };
    originals.set(Base.name, Base);
    (globalThis as Record<string, unknown>)[Base.name] = Tracked;
  }
}
function removeAllocationTracker(): void {
  for (const [name, Base] of originals) (globalThis as Record<string, unknown>)[name] = Base;
}

/** Longer exploratory runs: FORMATS_FUZZ_SCALE=20 FORMATS_FUZZ_SEED=7 npx jest ... (CI uses the defaults). */
const SCALE = Number(process.env['FORMATS_FUZZ_SCALE'] ?? 1);
const SEED = Number(process.env['FORMATS_FUZZ_SEED'] ?? 0x5eed);

interface Fixture {
  name: string;
  /** Built inputs cover layouts the fixtures lack (DL and HL lists of DZ blocks, bit fields). */
  build?: () => Uint8Array;
  cases: number;
  /** Structural bytes worth aiming at (headers, block lists) as opposed to sample payload. */
  structure: number;
  /** Largest input prefix a case starts from, to keep big text files fast. */
  maxLength: number;
  /** Allowed allocation for an input of n bytes: deflate may legitimately expand about 1032:1. */
  bound: (n: number) => number;
  channelsPerCase: number;
  /** Feed three mutated copies at once, as a per-lap dataset. */
  lapSet?: boolean;
}

const FIXTURES: Fixture[] = [
  { name: 'Sample1.ld', cases: 1500, structure: 23_100, maxLength: Infinity, bound: (n) => 8 * n + (1 << 20), channelsPerCase: 6 },
  { name: 'simple.mf4', cases: 2000, structure: 9_808, maxLength: Infinity, bound: (n) => 8 * 1040 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'asammdf_dimensional_demo.mf4', cases: 2000, structure: 18_360, maxLength: Infinity, bound: (n) => 8 * 1040 * n + (1 << 20), channelsPerCase: 20 },
  // Conversions (an algebraic formula among them), and strings (VLSD), a structure's fields and its bytes.
  { name: 'f03_conversions_410.mf4', cases: 800, structure: 36_456, maxLength: Infinity, bound: (n) => 8 * 1040 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'f12_strings_arrays_structs_410.mf4', cases: 800, structure: 12_808, maxLength: Infinity, bound: (n) => 8 * 1040 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'built MDF (HL → DL → DZ)', build: builtMdf, cases: 1000, structure: 3_000, maxLength: Infinity, bound: (n) => 8 * 1040 * n + (1 << 20), channelsPerCase: 20 },
  // MDF 3 data is stored raw (no compression): a record of 1 byte decodes to at most one float64 per channel.
  { name: 'f11_v330.mdf', cases: 1000, structure: 10_570, maxLength: Infinity, bound: (n) => 8 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'built MDF 3 (big-endian default, record ids, bit fields, conversions)', build: builtMdf3, cases: 1000, structure: 3_000, maxLength: Infinity, bound: (n) => 8 * n + (1 << 20), channelsPerCase: 20 },
  // The MDF 4.3 codecs: a file's ##DZ blocks unpack to at most 64 times its size (the default decompression budget).
  { name: 'built MDF (zstd, transposed zstd)', build: () => builtMdf(['DZ-zstd', 'DZ-zstd-transposed']), cases: 800, structure: 4_000, maxLength: Infinity, bound: (n) => 8 * 64 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'built MDF (LZ4, DL of transposed LZ4)', build: () => builtMdf(['DZ-lz4', 'DL-DZ-lz4']), cases: 800, structure: 4_000, maxLength: Infinity, bound: (n) => 8 * 64 * n + (1 << 20), channelsPerCase: 20 },
  // Unsorted: two groups' records and VLSD records interleaved behind 2-byte ids, indexed at open; then unfinalised.
  { name: 'built unsorted MDF (record ids, VLSD records between)', build: () => unsortedMdf(false), cases: 800, structure: 4_000, maxLength: Infinity, bound: (n) => 8 * 64 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'built unfinalised unsorted MDF (LZ4)', build: () => unsortedMdf(true), cases: 500, structure: 4_000, maxLength: Infinity, bound: (n) => 8 * 64 * n + (1 << 20), channelsPerCase: 20 },
  { name: 'per-lap set of demo .ld files', build: () => createDemoLdFile({ flyingLaps: 1 }), lapSet: true, cases: 300, structure: 6_000, maxLength: Infinity, bound: (n) => 16 * 3 * n + (1 << 20), channelsPerCase: 9 },
  { name: 'csv_sample.csv', cases: 1500, structure: 2_000, maxLength: 24_000, bound: (n) => 16 * n + (1 << 20), channelsPerCase: 20 },
];

function builtMdf(storages: Mdf4GroupSpec['storage'][] = ['HL']): Uint8Array {
  const n = 300;
  const records = new Uint8Array(n * 16);
  const v = new DataView(records.buffer);
  for (let i = 0; i < n; i++) {
    v.setFloat64(i * 16, i / 50, true);
    v.setInt16(i * 16 + 8, i * 11, false);
    v.setUint16(i * 16 + 10, (i << 3) | (i & 7), true);
    v.setFloat32(i * 16 + 12, i / 3, true);
  }
  return buildMdf4File({
    groups: storages.map((storage) => ({
      dataBytes: 16,
      cycleCount: n,
      records,
      storage,
      channels: [
        { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: 'be16', dataType: 3, bitCount: 16, byteOffset: 8, conversion: { type: 4, values: [0, 0, 1000, 50, 3000, 60] } },
        { name: 'bits', dataType: 0, bitCount: 13, byteOffset: 10, bitOffset: 3 },
        { name: 'f32', dataType: 4, bitCount: 32, byteOffset: 12, conversion: { type: 8, values: [0, 10, 10, 20], texts: ['low', 'high', 'other'] } },
      ],
    })),
  });
}

function builtMdf3(): Uint8Array {
  const n = 200;
  const records = new Uint8Array(n * 12);
  const v = new DataView(records.buffer);
  for (let i = 0; i < n; i++) {
    v.setUint32(i * 12, i * 5, false);
    v.setInt16(i * 12 + 4, i * 11 - 900, false);
    v.setUint16(i * 12 + 6, (i << 3) | (i & 7), true);
    v.setFloat32(i * 12 + 8, i / 3, false);
  }
  return buildMdf3File({
    version: '3.30',
    byteOrder: 1,
    comment: 'fuzz',
    groups: [
      {
        recordSize: 12,
        cycleCount: n,
        recordIds: 2,
        records,
        channels: [
          { name: 'time', dataType: 0, bitCount: 32, byteOffset: 0, master: true, conversion: { type: 0, values: [0, 0.01] }, unit: 's' },
          { name: 'be16', dataType: 1, bitCount: 16, byteOffset: 4, conversion: { type: 1, values: [-900, 0, 0, 50, 1300, 60] } },
          { name: 'bits', dataType: 13, bitCount: 13, byteOffset: 6, bitOffset: 3, conversion: { type: 12, values: [0, 10, 10, 20], texts: ['other', 'low', 'high'] } },
          { name: 'f32', dataType: 2, bitCount: 32, byteOffset: 8, conversion: { type: 6, values: [1, 2, 0.5, 0.25, 1, 4] } },
          { name: 'text', dataType: 13, bitCount: 8, byteOffset: 6, conversion: { type: 11, values: [0, 1], texts: ['zero', 'one'] }, longName: true },
          { name: 'log', dataType: 13, bitCount: 8, byteOffset: 7, conversion: { type: 8, values: [0, 0, 100, 1, 3, 1, -30] }, displayName: 'Log' },
        ],
      },
    ],
  });
}

function unsortedMdf(unfinalised: boolean): Uint8Array {
  const [fast, slow] = [300, 40];
  const group = (n: number): Mdf4GroupSpec => {
    const records = new Uint8Array(n * 11);
    const v = new DataView(records.buffer);
    for (let i = 0; i < n; i++) {
      v.setFloat64(i * 11, i / 50, true);
      v.setInt16(i * 11 + 8, i * 7, true);
      records[i * 11 + 10] = i % 3 === 0 ? 1 : 0;
    }
    return {
      dataBytes: 10,
      invalBytes: 1,
      cycleCount: n,
      records,
      channels: [
        { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
        { name: 'i16', dataType: 2, bitCount: 16, byteOffset: 8, invalBitPos: 0 },
      ],
    };
  };
  const bytes = buildMdf4File({
    groups: [group(fast), group(slow)],
    unsorted: { recordIdSize: 2, vlsd: { every: 9, payloads: ['pit', 'green'].map((t) => new TextEncoder().encode(t)) }, ...(unfinalised ? { storage: 'DZ-lz4' as const } : {}) },
  });
  if (unfinalised) {
    bytes.set(new TextEncoder().encode('UnFinMF '), 0);
    new DataView(bytes.buffer).setUint16(60, 0x01, true);
  }
  return bytes;
}

function mutate(base: Uint8Array, f: Fixture, random: () => number): Uint8Array {
  const pick = (n: number) => Math.floor(random() * n);
  const length = Math.min(base.length, random() < 0.02 ? base.length : f.maxLength);
  const kind = random();
  if (kind < 0.25) return base.slice(0, pick(length + 1)); // truncation
  const copy = base.slice(0, length);
  const at = () => (random() < 0.8 ? pick(Math.min(f.structure, length)) : pick(length));
  const edits = 1 + pick(8);
  for (let e = 0; e < edits && copy.length > 0; e++) {
    const r = random();
    if (r < 0.4) copy[at()] = pick(256);
    else if (r < 0.6) copy[at()] ^= 1 << pick(8);
    else {
      // Counts, sizes and pointers are 16- to 64-bit fields: extremes find the missing checks.
      const extremes = [0, 1, 0xff, 0xffff, 0x7fffffff, 0xffffffff, pick(copy.length), pick(0x10000)];
      const value = extremes[pick(extremes.length)];
      const offset = at();
      for (let k = 0; k < 4 && offset + k < copy.length; k++) copy[offset + k] = (value >>> (8 * k)) & 0xff;
    }
  }
  return copy;
}

describe('fuzz: mutated and truncated fixtures', () => {
  beforeAll(installAllocationTracker);
  afterAll(removeAllocationTracker);

  it('when the readers allocate, then the tracker sees it (so the bound below is really checked)', () => {
    largestAllocation = 0;
    openDataFile(readFixture('Sample1.ld')).readChannel('Susp Pos FL');
    expect(largestAllocation).toBeGreaterThanOrEqual(45_400 * 4);
  });

  it.each(FIXTURES)('when $cases mutated copies of $name are read, then each is a result or a DataFileError within the allocation bound', (f) => {
    const base = f.build ? f.build() : readFixture(f.name);
    const random = mulberry32(SEED + f.name.length);
    const cases = Math.round(f.cases * SCALE);
    const failures: string[] = [];
    const outcomes = { opened: 0, typed: 0 };
    for (let c = 0; c < cases; c++) {
      const input = mutate(base, f, random);
      const lapSet = f.lapSet ? [input, mutate(base, f, random), mutate(base, f, random)] : null;
      largestAllocation = 0;
      try {
        const file = openDataFile(lapSet ?? input);
        outcomes.opened++;
        const channels = file.channels.filter(() => random() < f.channelsPerCase / Math.max(1, file.channels.length));
        for (const channel of channels) {
          try {
            if (channel.kind) {
              const events = file.readEvents(channel.name);
              if (events.offsets.length !== channel.sampleCount + 1) failures.push(`case ${c}: ${channel.name} has ${events.offsets.length - 1} events, catalogue says ${channel.sampleCount}`);
              continue;
            }
            const data = file.readChannel(channel.name);
            if (data.samples.length !== channel.sampleCount * channel.dimension) failures.push(`case ${c}: ${channel.name} has ${data.samples.length} values, catalogue says ${channel.sampleCount} × ${channel.dimension}`);
            sliceByWindow(data, file.startTime + random() * file.duration, random() * 10);
          } catch (error) {
            if (!(error instanceof DataFileError)) throw error;
          }
        }
      } catch (error) {
        if (error instanceof DataFileError) outcomes.typed++;
        else failures.push(`case ${c}: ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`);
      }
      if (largestAllocation > f.bound(input.length)) failures.push(`case ${c}: allocated ${largestAllocation} bytes for a ${input.length}-byte input`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    // Both branches must be exercised, or the mutations are not testing anything.
    expect(outcomes.opened).toBeGreaterThan(cases / 50);
    expect(outcomes.typed).toBeGreaterThan(cases / 50);
  });
});
