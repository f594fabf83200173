import type { BinaryView } from '../binary-view';

/** A channel group of an unsorted data group, as its records are told apart: by cg_record_id. */
export interface RecordKind {
  recordId: number;
  /** Bytes after the record id: data bytes + invalidation bytes; for a VLSD group, undefined (each record says its length). */
  recordSize: number | undefined;
  /** Records the group declares (its cycle count): the first guess of its positions' length. */
  expected: number;
}

/**
 * Where each channel group's records lie in the unpacked data of an unsorted data group: built once per data group,
 * by one pass over the records, and kept with those bytes (a read of a group gathers its records through it, a read
 * of any other group costs nothing more). Positions are of a record's first byte after its id.
 */
export interface RecordIndex {
  records: Uint8Array;
  positions: Map<number, Uint32Array | Float64Array>;
}

/**
 * Indexes the records of an unsorted data group. Each record is its id (`idSize` bytes, little-endian) then, for a
 * fixed-length group, its record bytes, for a VLSD group a u32 length and that many bytes (skipped: the signal data of
 * a VLSD channel, which is not read). An id no channel group has, or a record cut off by the end of the data, is
 * corrupt, except the last record of an unfinalised file (`partialTail`), which is dropped.
 */
export function indexRecords(bin: BinaryView, records: Uint8Array, idSize: number, kinds: RecordKind[], partialTail: boolean, at: number): RecordIndex {
  if (![1, 2, 4, 8].includes(idSize)) throw bin.corrupt(`record id size ${idSize} (MDF allows 1, 2, 4 or 8 bytes)`, at);
  const byId = new Map<number, number>();
  kinds.forEach((kind, k) => {
    if (byId.has(kind.recordId)) throw bin.corrupt(`two channel groups of one data group have record id ${kind.recordId}`, at);
    byId.set(kind.recordId, k);
  });
  // Small ids (all of them in practice) are looked up in an array rather than the Map, once per record.
  const maxId = kinds.reduce((m, k) => Math.max(m, k.recordId), 0);
  const table = maxId < 65_536 ? new Int32Array(maxId + 1).fill(-1) : undefined;
  if (table) byId.forEach((k, id) => (table[id] = k));
  // -1 for a VLSD group: its records carry their length. Float64: a record size is data bytes + invalidation bytes, two
  // u32s (up to 2^33 - 2), which 32 bits would wrap (a group of 2^32 + 11-byte records indexed as 11-byte ones).
  const sizes = Float64Array.from(kinds, (k) => (k.recordSize === undefined ? -1 : k.recordSize));
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const end = records.length;
  const idAt = (p: number): number =>
    idSize === 1 ? records[p] : idSize === 2 ? view.getUint16(p, true) : idSize === 4 ? view.getUint32(p, true) : view.getUint32(p + 4, true) * 4294967296 + view.getUint32(p, true);
  const lookup = table ?? new Int32Array(0);
  const kindAt = (p: number): number => {
    const id = idAt(p);
    const k = table ? (id < lookup.length ? lookup[id] : -1) : (byId.get(id) ?? -1);
    if (k < 0) throw bin.corrupt(`record id ${id} at byte ${p} of the data names no channel group of its data group`, at);
    return k;
  };
  /** The data ends inside the record at p: the end of an unfinalised file's data, else corrupt. */
  const cut = (p: number, what: string): void => {
    if (partialTail) return;
    throw bin.corrupt(`${what} at byte ${p} of the data runs past its end (${end} bytes)`, at);
  };

  // One pass: each group's positions go into an array that doubles as it fills (copied about once in all).
  const wide = end > 0xffffffff; // positions fit 32 bits unless the data group unpacks past 4 GiB
  // Sized from the declared counts (as many as the data could hold at most), so a finalised file's never grow.
  const capacity = (kind: RecordKind) => (kind.recordSize === undefined ? 0 : Math.max(16, Math.min(kind.expected, Math.floor(end / (idSize + kind.recordSize)))));
  const lists: (Uint32Array | Float64Array)[] = kinds.map((kind) => (wide ? new Float64Array(capacity(kind)) : new Uint32Array(capacity(kind))));
  const counts = new Uint32Array(kinds.length);
  const grow = (k: number) => {
    const bigger = wide ? new Float64Array(Math.max(16, lists[k].length * 2)) : new Uint32Array(Math.max(16, lists[k].length * 2));
    bigger.set(lists[k]);
    lists[k] = bigger;
  };
  // The common layout (one-byte ids, positions in 32 bits) in a loop of its own; what it cannot settle, the loop below does.
  let p = idSize === 1 && table && !wide ? scanOneByteIds(records, lookup, sizes, lists as Uint32Array[], counts) : 0;
  while (p < end) {
    if (p + idSize > end) {
      cut(p, 'a record id');
      break;
    }
    const kind = kindAt(p);
    let position = p + idSize;
    let length = sizes[kind];
    if (length < 0) {
      if (position + 4 > end) {
        cut(p, 'a VLSD record length');
        break;
      }
      length = view.getUint32(position, true);
      position += 4;
    }
    if (position + length > end) {
      cut(p, `a record of ${length} bytes`);
      break;
    }
    if (sizes[kind] >= 0) {
      if (counts[kind] === lists[kind].length) grow(kind);
      lists[kind][counts[kind]++] = position;
    }
    p = position + length;
  }
  const positions = new Map<number, Uint32Array | Float64Array>();
  kinds.forEach((kind, k) => {
    // A list grown past what it holds by more than half is copied down to its size.
    if (kind.recordSize !== undefined) positions.set(kind.recordId, counts[k] * 2 < lists[k].length ? lists[k].slice(0, counts[k]) : lists[k].subarray(0, counts[k]));
  });
  return { records, positions };
}

/**
 * Positions of the records from the start while their one-byte ids name fixed-length groups and they end inside the
 * data; returns where it stopped (the end of the data, or a record the general loop must judge).
 */
function scanOneByteIds(records: Uint8Array, lookup: Int32Array, sizes: Float64Array, lists: Uint32Array[], counts: Uint32Array): number {
  const end = records.length;
  // Walking records is a chain of dependent loads (id, then length, then the next id): one table from id to the bytes
  // to skip keeps it short. 0 marks an id to leave to the general loop (unknown, VLSD, or records longer than the data).
  const step = new Int32Array(256);
  for (let id = 0; id < Math.min(256, lookup.length); id++) {
    const size = lookup[id] >= 0 ? sizes[lookup[id]] : -1;
    if (size >= 0 && 1 + size <= Math.min(end, 0x7fffffff)) step[id] = 1 + size;
  }
  let p = 0;
  while (p < end) {
    const id = records[p];
    const skip = step[id];
    if (skip === 0) {
      const k = id < lookup.length ? lookup[id] : -1;
      // VLSD: skipped by its length prefix.
      if (k < 0 || sizes[k] >= 0 || p + 5 > end) return p;
      const length = (records[p + 1] | (records[p + 2] << 8) | (records[p + 3] << 16)) + records[p + 4] * 16777216;
      if (p + 5 + length > end) return p;
      p += 5 + length;
      continue;
    }
    if (p + skip > end) return p;
    const k = lookup[id];
    let list = lists[k];
    const count = counts[k];
    if (count === list.length) {
      const bigger = new Uint32Array(Math.max(16, list.length * 2));
      bigger.set(list);
      lists[k] = list = bigger;
    }
    list[count] = p + 1;
    counts[k] = count + 1;
    p += skip;
  }
  return p;
}

/** The first `n` records of one unsorted group: where they lie, read in place (nothing is copied to sort them). */
export interface IndexedRecords {
  bytes: Uint8Array;
  positions: Uint32Array | Float64Array;
  n: number;
}

export function indexedRecords(index: RecordIndex, recordId: number, n: number): IndexedRecords {
  return { bytes: index.records, positions: index.positions.get(recordId) ?? new Uint32Array(0), n };
}

interface NumericLayout {
  dataType: number;
  bitOffset: number;
  byteOffset: number;
  bitCount: number;
}

/**
 * Raw values of one channel read in place from an unsorted group's records, one DataView read per sample as for a
 * sorted group. Returns false for a channel that is not whole aligned bytes: `compact` then gives its covering bytes
 * record after record, for the sorted decoder.
 */
export function decodeIndexed(records: IndexedRecords, c: NumericLayout, out: Float64Array): boolean {
  const { bytes, positions } = records;
  const n = Math.min(records.n, positions.length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = c.dataType % 2 === 0;
  const signed = c.dataType === 2 || c.dataType === 3;
  const o = c.byteOffset;
  // Positions below 4 GiB of data (all in practice) in loops of their own: a constant byte order and one array type
  // keep each loop monomorphic, about twice as fast as the general loops below.
  if (little && positions instanceof Uint32Array) return decodeLittle(bytes, view, positions, n, c, signed, out);
  if (c.dataType === 4 || c.dataType === 5) {
    if (c.bitCount === 64) for (let i = 0; i < n; i++) out[i] = view.getFloat64(positions[i] + o, little);
    else if (c.bitCount === 32) for (let i = 0; i < n; i++) out[i] = view.getFloat32(positions[i] + o, little);
    else return false;
    return true;
  }
  if (c.bitOffset !== 0) return false;
  if (c.bitCount === 8) {
    if (signed) for (let i = 0; i < n; i++) out[i] = view.getInt8(positions[i] + o);
    else for (let i = 0; i < n; i++) out[i] = bytes[positions[i] + o];
  } else if (c.bitCount === 16) {
    if (signed) for (let i = 0; i < n; i++) out[i] = view.getInt16(positions[i] + o, little);
    else for (let i = 0; i < n; i++) out[i] = view.getUint16(positions[i] + o, little);
  } else if (c.bitCount === 32) {
    if (signed) for (let i = 0; i < n; i++) out[i] = view.getInt32(positions[i] + o, little);
    else for (let i = 0; i < n; i++) out[i] = view.getUint32(positions[i] + o, little);
  } else return false;
  return true;
}

/** decodeIndexed for little-endian values at 32-bit positions. */
function decodeLittle(bytes: Uint8Array, view: DataView, pos: Uint32Array, n: number, c: NumericLayout, signed: boolean, out: Float64Array): boolean {
  const o = c.byteOffset;
  if (c.dataType === 4) {
    if (c.bitCount === 64) for (let i = 0; i < n; i++) out[i] = view.getFloat64(pos[i] + o, true);
    else if (c.bitCount === 32) for (let i = 0; i < n; i++) out[i] = view.getFloat32(pos[i] + o, true);
    else return false;
    return true;
  }
  if (c.bitOffset !== 0) return false;
  if (c.bitCount === 8) {
    if (signed) for (let i = 0; i < n; i++) out[i] = (bytes[pos[i] + o] << 24) >> 24;
    else for (let i = 0; i < n; i++) out[i] = bytes[pos[i] + o];
  } else if (c.bitCount === 16) {
    if (signed) for (let i = 0; i < n; i++) out[i] = view.getInt16(pos[i] + o, true);
    else for (let i = 0; i < n; i++) out[i] = view.getUint16(pos[i] + o, true);
  } else if (c.bitCount === 32) {
    if (signed) for (let i = 0; i < n; i++) out[i] = view.getInt32(pos[i] + o, true);
    else for (let i = 0; i < n; i++) out[i] = view.getUint32(pos[i] + o, true);
  } else return false;
  return true;
}

/** `width` bytes from `offset` of each record, back to back: a bit field, a half float, a 64-bit integer decode from it. */
export function compact(records: IndexedRecords, offset: number, width: number): Uint8Array {
  const { bytes, positions } = records;
  const n = Math.min(records.n, positions.length);
  const out = new Uint8Array(n * width);
  for (let i = 0, to = 0; i < n; i++) {
    const from = positions[i] + offset;
    for (let b = 0; b < width; b++) out[to++] = bytes[from + b];
  }
  return out;
}
