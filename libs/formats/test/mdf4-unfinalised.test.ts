import { CorruptDataFileError, openDataFile } from '../src';
import { buildMdf4File, type Mdf4GroupSpec } from '../src/testing';

/**
 * Unfinalised files made from finalised ones by patching what a logger leaves unwritten when it stops without
 * finalising: the "UnFinMF " id with its flags, cycle counts of 0, the last ##DT's length as it was when its header was
 * written (24 bytes: no data yet).
 */
const N = 1000;
function group(storage: Mdf4GroupSpec['storage'] = 'DT'): Mdf4GroupSpec {
  const records = new Uint8Array(N * 16);
  const v = new DataView(records.buffer);
  for (let i = 0; i < N; i++) {
    v.setFloat64(i * 16, i / 100, true);
    v.setFloat64(i * 16 + 8, Math.cos(i / 50), true);
  }
  return {
    dataBytes: 16,
    cycleCount: N,
    records,
    storage,
    channels: [
      { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
      { name: 'Damper', unit: 'mm', dataType: 4, bitCount: 64, byteOffset: 8 },
    ],
  };
}

interface Unfinish {
  flags?: number;
  custom?: number;
  /** Cycle counts of every ##CG set to 0. */
  counts?: boolean;
  /** The last ##DT's length set to its header's 24 bytes. */
  lastDt?: boolean;
}

function unfinish(finalised: Uint8Array, { flags = 0x05, custom = 0, counts = true, lastDt = true }: Unfinish = {}): Uint8Array {
  // A logger's file ends where its last ##DT stopped growing: without the builder's padding to 8 bytes after it.
  const last = Buffer.from(finalised).lastIndexOf('##DT');
  const end = last + Number(new DataView(finalised.buffer, finalised.byteOffset).getBigUint64(last + 8, true));
  const bytes = finalised.slice(0, finalised.length - end < 8 ? end : finalised.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('UnFinMF '), 0);
  view.setUint16(60, flags, true);
  view.setUint16(62, custom, true);
  const text = Buffer.from(bytes);
  for (let at = text.indexOf('##CG'); counts && at >= 0; at = text.indexOf('##CG', at + 4)) view.setBigUint64(at + 24 + 6 * 8 + 8, 0n, true);
  if (lastDt) view.setBigUint64(text.lastIndexOf('##DT') + 8, 24n, true);
  return bytes;
}

function expectSameValues(unfinalised: Uint8Array, finalised: Uint8Array, samples = N): void {
  const file = openDataFile(unfinalised);
  const reference = openDataFile(finalised);
  expect(file.channels).toEqual(reference.channels.map((c) => ({ ...c, sampleCount: samples })));
  for (const { name } of reference.channels) {
    const data = file.readChannel(name);
    expect(data.samples).toEqual(reference.readChannel(name).samples.slice(0, samples));
  }
}

describe('unfinalised MDF4 files (issue 39, item 2)', () => {
  it('when the logger left the cycle count and the last ##DT length unwritten, then they are recovered from the data', () => {
    const finalised = buildMdf4File({ groups: [group()] });
    expectSameValues(unfinish(finalised), finalised);
    expect(openDataFile(unfinish(finalised)).duration).toBeCloseTo(10, 9);
  });

  it('when the logger stopped in the middle of a record, then the whole records are read and the cut one is dropped', () => {
    const finalised = buildMdf4File({ groups: [group()] });
    const whole = unfinish(finalised);
    expectSameValues(whole.subarray(0, whole.length - 5), finalised, N - 1);
  });

  it('when the last ##DT of a ##DL grew, then it runs up to the next block (the list after it), and a list counting blocks it never linked keeps those it has', () => {
    const finalised = buildMdf4File({ groups: [group('DL')] });
    const bytes = unfinish(finalised, { flags: 0x15 });
    const dl = Buffer.from(bytes).indexOf('##DL');
    new DataView(bytes.buffer).setUint32(dl + 24 + 4 * 8 + 4, 7, true); // dl_count: 7 blocks, 3 linked
    expectSameValues(bytes, finalised);
  });

  it('when the flags are 0 (an MDF 4.0 writer), then every step is taken', () => {
    const finalised = buildMdf4File({ groups: [group()] });
    expectSameValues(unfinish(finalised, { flags: 0 }), finalised);
  });

  it('when only the cycle count is left, then the declared ##DT length stands and the count comes from it', () => {
    const finalised = buildMdf4File({ groups: [group()] });
    expectSameValues(unfinish(finalised, { flags: 0x01, lastDt: false }), finalised);
  });

  it('when an unsorted file with VLSD records was not finalised, then counts come from its record index (the VLSD flags need nothing)', () => {
    const slow = { ...group(), cycleCount: 100, records: group().records.slice(0, 1600) };
    const spec = { groups: [group(), slow], unsorted: { recordIdSize: 2 as const, vlsd: { every: 5, payloads: [new TextEncoder().encode('lap 3')] } } };
    const finalised = buildMdf4File(spec);
    const file = openDataFile(unfinish(finalised, { flags: 0x65 }));
    expect(file.channels.map((c) => c.sampleCount)).toEqual([N, 100]);
    expect(file.readChannel('Damper (2)').samples).toEqual(openDataFile(finalised).readChannel('Damper (2)').samples);
  });

  it('when a ##CN has 200,000 links, then the blocks the last ##DT may run into are all found and the file reads as finalised', () => {
    // The time channel again, its 8 links then 199,992 more naming the ##HD, appended to the file as the group's first ##CN.
    const finalised = buildMdf4File({ groups: [group()] });
    const unfinished = unfinish(finalised);
    const cn = Buffer.from(unfinished).indexOf('##CN');
    const links = 200_000;
    const length = 24 + 8 * links + 72;
    const bytes = new Uint8Array(unfinished.length + length);
    bytes.set(unfinished);
    const at = unfinished.length;
    const v = new DataView(bytes.buffer);
    bytes.set(unfinished.subarray(cn, cn + 24 + 8 * 8), at);
    v.setBigUint64(at + 8, BigInt(length), true);
    v.setBigUint64(at + 16, BigInt(links), true);
    for (let i = 8; i < links; i++) v.setBigUint64(at + 24 + 8 * i, 64n, true);
    bytes.set(unfinished.subarray(cn + 24 + 8 * 8, cn + 24 + 8 * 8 + 72), at + 24 + 8 * links);
    v.setBigUint64(Buffer.from(bytes).indexOf('##CG') + 24 + 8, BigInt(at), true);
    expectSameValues(bytes, finalised);
  });

  it('when the writer set its own (custom) unfinalised flags, then a 422-class error says the file was not finalised by its logger', () => {
    const bytes = unfinish(buildMdf4File({ groups: [group()] }), { custom: 0x0001 });
    expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
    expect(() => openDataFile(bytes)).toThrow(/the file was not finalised by its logger \(UnFinMF\) and its writer-specific unfinalised flags 0x0001/);
  });

  it('when the flags name steps MDF does not define, then it is refused the same way', () => {
    expect(() => openDataFile(unfinish(buildMdf4File({ groups: [group()] }), { flags: 0x0105 }))).toThrow(/not finalised by its logger .* steps MDF 4.3 does not define/);
  });

  it('when the data of an unfinalised file cannot be recovered, then the refusal says it was not finalised, and why', () => {
    const bytes = unfinish(buildMdf4File({ groups: [group(), group()], unsorted: { recordIdSize: 1 } }));
    bytes[Buffer.from(bytes).lastIndexOf('##DT') + 24] = 42; // the first record's id names no group
    expect(() => openDataFile(bytes)).toThrow(/not finalised by its logger \(UnFinMF\) and its data could not be recovered: record id 42/);
  });
});
