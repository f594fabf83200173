import { deflateSync, zstdCompressSync } from 'node:zlib';
import { compressBlock, compressBound } from '../lz4/lz4js-blocks';
import { xxh32 } from '../lz4/xxh32';

/**
 * Builds small MDF 4.10 files for tests: the readers' fixtures cover few layouts, so tests describe records
 * byte by byte and choose how they are stored (DT, DZ, DL, HL) and converted.
 */
export interface Mdf4ConversionSpec {
  /** cc_type: 1 linear, 2 rational, 4/5 table, 6 range→value, 7 value→text, 8 range→text, ... */
  type: number;
  values: number[];
  /** For text conversions: one text per key, then the default. */
  texts?: string[];
}

export interface Mdf4ChannelSpec {
  name: string;
  unit?: string;
  /** cn_data_type: 0 uint LE, 1 uint BE, 2 int LE, 3 int BE, 4 float LE, 5 float BE, 6+ text and others. */
  dataType: number;
  bitCount: number;
  byteOffset: number;
  bitOffset?: number;
  /** cn_type: 0 fixed length (default), 1 VLSD, 2 master, 3 virtual master. */
  cnType?: number;
  /** cn_sync_type: 1 (time) for a master unless given, else 0; 2 angle, 3 distance, 4 index. */
  sync?: number;
  conversion?: Mdf4ConversionSpec;
  /** Invalidation bit position (within the invalidation bytes after the data bytes). */
  invalBitPos?: number;
  /** A VLSD channel's values, stored length-prefixed in one ##SD (or a ##DL of two); records hold their u64 offsets. */
  signalData?: { values: Uint8Array[]; storage?: 'SD' | 'DL' };
  /** An array (##CA, CN template): `shape` values per record, element k at byteOffset + k × stride. */
  array?: { shape: number[]; stride: number; type?: number; storage?: number; flags?: number };
  /** A structure: these fields as a ##CN chain in the composition link (byte offsets within the record). */
  fields?: Mdf4ChannelSpec[];
}

/** Offsets of VLSD values in their signal data (what a record of the value's index holds). */
export function signalDataOffsets(values: readonly Uint8Array[]): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const v of values) {
    offsets.push(at);
    at += 4 + v.length;
  }
  return offsets;
}

export interface Mdf4GroupSpec {
  dataBytes: number;
  invalBytes?: number;
  cycleCount: number;
  /** cycleCount records of dataBytes + invalBytes each. */
  records: Uint8Array;
  channels: Mdf4ChannelSpec[];
  /**
   * DT (default), DZ deflate, DZ transposed, DL of DT chunks, DL of DZ chunks, HL over a DL of DZ chunks; `DL-repeated`
   * is a hostile list: one DT of the records named `repeat` times by one DL. The MDF 4.3 codecs: `DZ-zstd`,
   * `DZ-zstd-transposed`, `DZ-lz4`, `DZ-lz4-transposed` (one LZ4 frame of independent 64 KiB blocks with its content size,
   * no checksum, as asammdf writes them), and `DL-DZ-lz4`: a DL of transposed LZ4 chunks.
   */
  storage?: 'DT' | 'DZ' | 'DZ-transposed' | 'DL' | 'DL-DZ' | 'HL' | 'DL-repeated' | Mdf43Storage | 'DL-DZ-lz4';
  /** How many times a `DL-repeated` list names its DT (default 2). */
  repeat?: number;
  recordIdSize?: number;
  cgFlags?: number;
}

/** `##DZ` storages of the codecs MDF 4.3 added, by zip type. */
const MDF43_ZIP_TYPES = { 'DZ-zstd': 2, 'DZ-zstd-transposed': 3, 'DZ-lz4': 4, 'DZ-lz4-transposed': 5 } as const;
type Mdf43Storage = keyof typeof MDF43_ZIP_TYPES;

/**
 * Every group of the file in one unsorted data group: each record behind its group's record id (1, 2, ... in the
 * order of `groups`), the groups' records interleaved as they would have been logged (the i-th of n records at i / n of
 * the way through), and, with `vlsd`, a VLSD channel group (record id `groups.length + 1`) whose length-prefixed
 * records sit after every `every` records of the others.
 */
export interface Mdf4UnsortedSpec {
  recordIdSize: 1 | 2 | 4 | 8;
  vlsd?: { every: number; payloads: Uint8Array[] };
  /** How the interleaved records are stored (default DT). */
  storage?: Mdf4GroupSpec['storage'];
}

export interface Mdf4FileSpec {
  startTimeNs?: bigint;
  /** Writes the groups as one unsorted data group (their `storage` and `recordIdSize` are then not used). */
  unsorted?: Mdf4UnsortedSpec;
  /** Header comment XML (##MD), e.g. with <common_properties>. */
  comment?: string;
  groups: Mdf4GroupSpec[];
}

interface Block {
  id: string;
  links: (Block | null)[];
  data: Uint8Array;
  offset?: number;
}

export function buildMdf4File(spec: Mdf4FileSpec): Uint8Array {
  const blocks: Block[] = [];
  const block = (id: string, links: (Block | null)[], data: Uint8Array): Block => {
    const b = { id, links, data };
    blocks.push(b);
    return b;
  };
  const text = (value: string, id = 'TX') => block(id, [], new TextEncoder().encode(`${value}\0`));

  const hdData = new Uint8Array(32);
  new DataView(hdData.buffer).setBigUint64(0, spec.startTimeNs ?? 1_700_000_000_000_000_000n, true);
  const hd = block('HD', [null, null, null, null, null, null], hdData);
  if (spec.comment) hd.links[5] = text(spec.comment, 'MD');

  let previousDg: Block | null = null;
  let previousCg: Block | null = null;
  const unsortedDg = spec.unsorted ? block('DG', [null, null, null, null], Uint8Array.of(spec.unsorted.recordIdSize, 0, 0, 0, 0, 0, 0, 0)) : null;
  if (unsortedDg) hd.links[0] = unsortedDg;
  const channelGroup = (dg: Block, recordId: number, cycleCount: number, flags: number, dataBytes: number, invalBytes: number): Block => {
    const cgData = new Uint8Array(32);
    const cgView = new DataView(cgData.buffer);
    cgView.setBigUint64(0, BigInt(recordId), true);
    cgView.setBigUint64(8, BigInt(cycleCount), true);
    cgView.setUint16(16, flags, true);
    cgView.setUint32(24, dataBytes, true);
    cgView.setUint32(28, invalBytes, true);
    const cg = block('CG', [null, null, null, null, null, null], cgData);
    if (dg === unsortedDg && previousCg) previousCg.links[0] = cg;
    else dg.links[1] = cg;
    previousCg = cg;
    return cg;
  };
  for (const [g, group] of spec.groups.entries()) {
    let dg: Block;
    if (unsortedDg) dg = unsortedDg;
    else {
      const dgData = new Uint8Array(8);
      dgData[0] = group.recordIdSize ?? 0;
      dg = block('DG', [null, null, null, null], dgData);
      if (previousDg) previousDg.links[0] = dg;
      else hd.links[0] = dg;
      previousDg = dg;
    }
    const cg = channelGroup(dg, unsortedDg ? g + 1 : 0, group.cycleCount, group.cgFlags ?? 0, group.dataBytes, group.invalBytes ?? 0);

    const first = channelChain(group.channels);
    if (first) cg.links[1] = first;
    if (!unsortedDg) dg.links[2] = storeRecords(group);
  }
  if (unsortedDg && spec.unsorted) {
    const vlsd = spec.unsorted.vlsd;
    const vlsdCount = vlsd ? Math.floor(spec.groups.reduce((n, g) => n + g.cycleCount, 0) / vlsd.every) : 0;
    if (vlsd) channelGroup(unsortedDg, spec.groups.length + 1, vlsdCount, 1, 0, 0);
    const mixed = interleave(spec.groups, spec.unsorted);
    unsortedDg.links[2] = storeRecords({ dataBytes: 1, cycleCount: mixed.length, records: mixed, channels: [], storage: spec.unsorted.storage ?? 'DT' });
  }

  function channelChain(channels: Mdf4ChannelSpec[]): Block | null {
    let first: Block | null = null;
    let previousCn: Block | null = null;
    for (const channel of channels) {
      const cnData = new Uint8Array(72);
      const v = new DataView(cnData.buffer);
      cnData[0] = channel.cnType ?? 0;
      cnData[1] = channel.sync ?? (channel.cnType === 2 || channel.cnType === 3 ? 1 : 0);
      cnData[2] = channel.dataType;
      cnData[3] = channel.bitOffset ?? 0;
      v.setUint32(4, channel.byteOffset, true);
      v.setUint32(8, channel.bitCount, true);
      v.setUint32(12, channel.invalBitPos === undefined ? 0 : 2, true);
      v.setUint32(16, channel.invalBitPos ?? 0, true);
      const composition = channel.array ? arrayBlock(channel.array) : channel.fields ? channelChain(channel.fields) : null;
      const data = channel.signalData ? signalData(channel.signalData.values, channel.signalData.storage ?? 'SD') : null;
      const cn = block('CN', [null, composition, text(channel.name), null, channel.conversion ? conversion(channel.conversion) : null, data, channel.unit ? text(channel.unit) : null, null], cnData);
      if (previousCn) previousCn.links[0] = cn;
      else first = cn;
      previousCn = cn;
    }
    return first;
  }

  function arrayBlock(a: NonNullable<Mdf4ChannelSpec['array']>): Block {
    const data = new Uint8Array(16 + 8 * a.shape.length);
    const v = new DataView(data.buffer);
    data[0] = a.type ?? 0;
    data[1] = a.storage ?? 0;
    v.setUint16(2, a.shape.length, true);
    v.setUint32(4, a.flags ?? 0, true);
    v.setInt32(8, a.stride, true);
    a.shape.forEach((size, k) => v.setBigUint64(16 + 8 * k, BigInt(size), true));
    return block('CA', [null], data);
  }

  function signalData(values: Uint8Array[], storage: 'SD' | 'DL'): Block {
    const packed = values.map((value) => {
      const entry = new Uint8Array(4 + value.length);
      new DataView(entry.buffer).setUint32(0, value.length, true);
      entry.set(value, 4);
      return entry;
    });
    const join = (parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    };
    if (storage === 'SD') return block('SD', [], join(packed));
    // Two ##SD blocks, split between values: the offsets run on across them.
    const half = Math.ceil(packed.length / 2);
    const parts = [join(packed.slice(0, half)), join(packed.slice(half))];
    const dlData = new Uint8Array(8 + 16);
    const dlView = new DataView(dlData.buffer);
    dlView.setUint32(4, 2, true);
    dlView.setBigUint64(16, BigInt(parts[0].length), true);
    return block('DL', [null, ...parts.map((p) => block('SD', [], p))], dlData);
  }

  function conversion(c: Mdf4ConversionSpec): Block {
    const texts = (c.texts ?? []).map((t) => text(t));
    const data = new Uint8Array(24 + 8 * c.values.length);
    const v = new DataView(data.buffer);
    data[0] = c.type;
    v.setUint16(4, texts.length, true);
    v.setUint16(6, c.values.length, true);
    c.values.forEach((x, i) => v.setFloat64(24 + 8 * i, x, true));
    return block('CC', [null, null, null, null, ...texts], data);
  }

  function storeRecords(group: Mdf4GroupSpec): Block {
    const records = group.records;
    const recordSize = group.dataBytes + (group.invalBytes ?? 0);
    const storage = group.storage ?? 'DT';
    if (storage === 'DT') return block('DT', [], records);
    if (storage === 'DZ') return dz(records, 0, recordSize);
    if (storage === 'DZ-transposed') return dz(records, 1, recordSize);
    if (storage in MDF43_ZIP_TYPES) return dz(records, MDF43_ZIP_TYPES[storage as Mdf43Storage], recordSize);
    if (storage === 'DL-repeated') {
      const dt = block('DT', [], records);
      const times = group.repeat ?? 2;
      const data = new Uint8Array(8 + 8 * times);
      const v = new DataView(data.buffer);
      v.setUint32(4, times, true);
      for (let i = 0; i < times; i++) v.setBigUint64(8 + 8 * i, BigInt(i * records.length), true);
      return block('DL', [null, ...Array.from({ length: times }, () => dt)], data);
    }
    // Lists split the records into three chunks at record boundaries.
    const cut = Math.max(1, Math.ceil(group.cycleCount / 3)) * recordSize;
    const chunks = [records.subarray(0, cut), records.subarray(cut, 2 * cut), records.subarray(2 * cut)].filter((c) => c.length > 0);
    const leaves = chunks.map((c) => (storage === 'DL' ? block('DT', [], c) : dz(c, storage === 'DL-DZ-lz4' ? 5 : 1, recordSize)));
    const dlData = new Uint8Array(8 + 8 * leaves.length);
    const dlView = new DataView(dlData.buffer);
    dlView.setUint32(4, leaves.length, true);
    let offset = 0;
    chunks.forEach((c, i) => {
      dlView.setBigUint64(8 + 8 * i, BigInt(offset), true);
      offset += c.length;
    });
    const dl = block('DL', [null, ...leaves], dlData);
    if (storage !== 'HL') return dl;
    const hlData = new Uint8Array(8);
    hlData[2] = 1;
    return block('HL', [dl], hlData);
  }

  function dz(records: Uint8Array, zipType: number, columns: number): Block {
    let source = records;
    if (zipType % 2 === 1) {
      const rows = Math.floor(records.length / columns);
      source = new Uint8Array(records.length);
      for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) source[c * rows + r] = records[r * columns + c];
      source.set(records.subarray(rows * columns), rows * columns);
    }
    const packed = zipType <= 1 ? deflateSync(source) : zipType <= 3 ? zstdCompressSync(source) : lz4Frame(source);
    const data = new Uint8Array(24 + packed.length);
    const v = new DataView(data.buffer);
    data.set([0x44, 0x54, zipType, 0]);
    v.setUint32(4, columns, true);
    v.setBigUint64(8, BigInt(records.length), true);
    v.setBigUint64(16, BigInt(packed.length), true);
    data.set(packed, 24);
    return block('DZ', [], data);
  }

  // Lay out: 64-byte identification block, then every block 8-byte aligned, then patch the links.
  let at = 64;
  for (const b of blocks) {
    b.offset = at;
    at += Math.ceil((24 + 8 * b.links.length + b.data.length) / 8) * 8;
  }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('MDF     4.10    pitwall '));
  view.setUint16(28, 410, true);
  for (const b of blocks) {
    const o = b.offset ?? 0;
    out.set(new TextEncoder().encode(`##${b.id}`), o);
    view.setBigUint64(o + 8, BigInt(24 + 8 * b.links.length + b.data.length), true);
    view.setBigUint64(o + 16, BigInt(b.links.length), true);
    b.links.forEach((l, i) => view.setBigUint64(o + 24 + 8 * i, BigInt(l?.offset ?? 0), true));
    out.set(b.data, o + 24 + 8 * b.links.length);
  }
  return out;
}

/** One LZ4 frame (independent 64 KiB blocks, its content size, no checksum) written synchronously. */
export function lz4Frame(data: Uint8Array): Uint8Array {
  const BLOCK = 64 * 1024;
  const descriptor = new Uint8Array(10);
  descriptor[0] = 0x68; // version 01, independent blocks, content size
  descriptor[1] = 0x40; // 64 KiB blocks
  new DataView(descriptor.buffer).setBigUint64(2, BigInt(data.length), true);
  const parts: Uint8Array[] = [Uint8Array.of(0x04, 0x22, 0x4d, 0x18), descriptor, Uint8Array.of((xxh32(descriptor) >>> 8) & 0xff)];
  const compressed = new Uint8Array(compressBound(BLOCK));
  const hashTable = new Uint32Array(1 << 16);
  for (let at = 0; at < data.length; at += BLOCK) {
    const chunk = data.subarray(at, Math.min(data.length, at + BLOCK));
    hashTable.fill(0);
    const size = compressBlock(chunk, compressed, 0, chunk.length, hashTable);
    const stored = size > 0 && size < chunk.length;
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, stored ? size : (chunk.length | 0x80000000) >>> 0, true);
    parts.push(header, stored ? compressed.slice(0, size) : chunk);
  }
  parts.push(new Uint8Array(4)); // end mark
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The records of every group behind their ids, interleaved by their place in time, with VLSD records between. */
function interleave(groups: Mdf4GroupSpec[], unsorted: Mdf4UnsortedSpec): Uint8Array {
  const idSize = unsorted.recordIdSize;
  const sizes = groups.map((g) => g.dataBytes + (g.invalBytes ?? 0));
  const vlsd = unsorted.vlsd;
  const total = groups.reduce((n, g) => n + g.cycleCount, 0);
  const vlsdCount = vlsd ? Math.floor(total / vlsd.every) : 0;
  const vlsdBytes = vlsd ? Array.from({ length: vlsdCount }, (_, k) => idSize + 4 + vlsd.payloads[k % vlsd.payloads.length].length).reduce((a, b) => a + b, 0) : 0;
  const out = new Uint8Array(groups.reduce((n, g, k) => n + g.cycleCount * (idSize + sizes[k]), 0) + vlsdBytes);
  const view = new DataView(out.buffer);
  const writeId = (at: number, id: number) => {
    if (idSize === 1) out[at] = id;
    else if (idSize === 2) view.setUint16(at, id, true);
    else if (idSize === 4) view.setUint32(at, id, true);
    else view.setBigUint64(at, BigInt(id), true);
  };
  const next = groups.map(() => 0);
  let at = 0;
  let written = 0;
  let vlsdWritten = 0;
  for (;;) {
    let pick = -1;
    for (let k = 0; k < groups.length; k++) {
      if (next[k] >= groups[k].cycleCount) continue;
      if (pick < 0 || next[k] / groups[k].cycleCount < next[pick] / groups[pick].cycleCount) pick = k;
    }
    if (pick < 0) break;
    writeId(at, pick + 1);
    const size = sizes[pick];
    out.set(groups[pick].records.subarray(next[pick] * size, (next[pick] + 1) * size), at + idSize);
    at += idSize + size;
    next[pick]++;
    if (vlsd && ++written % vlsd.every === 0 && vlsdWritten < vlsdCount) {
      const payload = vlsd.payloads[vlsdWritten++ % vlsd.payloads.length];
      writeId(at, groups.length + 1);
      view.setUint32(at + idSize, payload.length, true);
      out.set(payload, at + idSize + 4);
      at += idSize + 4 + payload.length;
    }
  }
  return out;
}
