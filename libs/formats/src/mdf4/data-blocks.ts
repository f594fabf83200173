import * as zlib from 'node:zlib';
import type { BinaryView } from '../binary-view';
import { UnsupportedFeatureError } from '../errors';
import { decodeLz4FramesInto, Lz4FrameError } from '../lz4';
import { firstOverlap } from '../spans';
import { chain, type Mdf4Block, readBlock } from './blocks';
import type { Finalisation } from './unfinalised';

/**
 * The codecs of `##DZ` blocks by zip type (MDF 4.3 added zstd and LZ4, each plain or after transposition), with the
 * most a byte of each can expand to: a declared size past it is a lie, refused before decompressing. Zstd has no
 * such ceiling (its RLE blocks reach about 32,000:1); the file's decompression budget bounds it.
 */
const ZIP_TYPES: Record<number, { codec: Codec; name: string; transposed: boolean; maxRatio: number }> = {
  0: { codec: 'deflate', name: 'deflate', transposed: false, maxRatio: 1032 },
  1: { codec: 'deflate', name: 'transposed deflate', transposed: true, maxRatio: 1032 },
  2: { codec: 'zstd', name: 'zstd', transposed: false, maxRatio: Infinity },
  3: { codec: 'zstd', name: 'transposed zstd', transposed: true, maxRatio: Infinity },
  4: { codec: 'lz4', name: 'LZ4', transposed: false, maxRatio: 256 },
  5: { codec: 'lz4', name: 'transposed LZ4', transposed: true, maxRatio: 256 },
};
type Codec = 'deflate' | 'zstd' | 'lz4';

const DZ = { orgType: 0, zipType: 2, zipParam: 4, orgLength: 8, dataLength: 16, data: 24 } as const;

/** The DT/DZ leaves of a data link, in order, and the record bytes they hold once unpacked. */
export interface DataLeaves {
  leaves: Mdf4Block[];
  size: number;
  /** Of `size`, the bytes that come out of `##DZ` blocks (what the file's decompression budget counts). */
  decompressed: number;
}

/**
 * The leaves of a data link: a list that names one block twice, or blocks whose bytes overlap (a ##DT nested in
 * another's data), is refused: a ##DL repeating or nesting ##DT blocks would make a small file unpack to any size (k
 * nested blocks add up to about k² / 2 times a block header). The leaves lie apart, so their ##DT bytes add up to at
 * most the file's, and their ##DZ bytes to what the file's decompression budget allows. With `claims`, the blocks of
 * the file's other data groups: a block (list or leaf) another group listed is refused as soon as it is reached.
 */
export function dataLeaves(bin: BinaryView, link: number, finalise?: Pick<Finalisation, 'lastDtEnd' | 'lenientLists'>, claims?: DataClaims): DataLeaves {
  const data = listLeaves(bin, link, finalise?.lenientLists ?? false, claims);
  const last = data.leaves[data.leaves.length - 1];
  if (finalise?.lastDtEnd && last?.id === 'DT') {
    // An unfinalised file's last ##DT kept growing after its header was written: it runs up to the next block.
    const dataLength = Math.max(0, finalise.lastDtEnd(last.offset) - last.data);
    data.size += dataLength - last.dataLength;
    data.leaves[data.leaves.length - 1] = { ...last, dataLength, length: last.data + dataLength - last.offset };
  }
  const overlap = firstOverlap(data.leaves);
  if (overlap) throw bin.corrupt(`data list names blocks that overlap: ${overlapping(overlap)}`, overlap[1].offset);
  return data;
}

/** "the ##DT block at 100 (500 bytes) runs over the ##DT block at 124" */
export function overlapping([a, b]: readonly [Mdf4Block, Mdf4Block]): string {
  return `the ##${a.id} block at ${a.offset} (${a.length} bytes) runs over the ##${b.id} block at ${b.offset}`;
}

/**
 * The data blocks (lists and leaves) the data groups of one file have listed, by offset, with the data group each
 * belongs to: every block is one group's. A block listed by a second group is refused when it is reached, so no list
 * is walked twice; leaves of different groups that overlap are refused by `refuseOverlaps` once all are listed.
 */
export class DataClaims {
  private readonly owners = new Map<number, number>();
  private readonly leaves: { block: Mdf4Block; group: number }[] = [];
  /** The data group (its ##DG offset) whose data is being listed. */
  group = 0;

  constructor(private readonly bin: BinaryView) {}

  claim(block: Mdf4Block, leaf: boolean): void {
    const owner = this.owners.get(block.offset);
    if (owner !== undefined && owner !== this.group) {
      throw this.bin.corrupt(`the data groups at ${owner} and ${this.group} share data: both list the ##${block.id} block at ${block.offset}`, block.offset);
    }
    this.owners.set(block.offset, this.group);
    if (leaf) this.leaves.push({ block, group: this.group });
  }

  /** Leaves are set apart within each group by dataLeaves; here, across groups. */
  refuseOverlaps(): void {
    const overlap = firstOverlap(this.leaves.map((l) => ({ ...l, offset: l.block.offset, length: l.block.length })));
    if (!overlap) return;
    const [a, b] = overlap;
    throw this.bin.corrupt(`the data groups at ${a.group} and ${b.group} share data: ${overlapping([a.block, b.block])}`, b.block.offset);
  }
}

function listLeaves(bin: BinaryView, link: number, lenientLists: boolean, claims: DataClaims | undefined): DataLeaves {
  const leaves: Mdf4Block[] = [];
  const named = new Set<number>();
  let size = 0;
  let decompressed = 0;
  const add = (block: Mdf4Block) => {
    if (named.has(block.offset)) throw bin.corrupt(`data list names the ##${block.id} block at ${block.offset} twice`, block.offset);
    named.add(block.offset);
    claims?.claim(block, true);
    leaves.push(block);
    if (block.id === 'DT') size += block.dataLength;
    else {
      const { orgLength } = dzHeader(bin, block);
      size += orgLength;
      decompressed += orgLength;
    }
  };
  if (link === 0) return { leaves, size, decompressed };
  const head = readBlock(bin, link);
  if (head.id === 'DT' || head.id === 'DZ') {
    add(head);
    return { leaves, size, decompressed };
  }
  let listStart = link;
  if (head.id === 'HL') {
    claims?.claim(head, false);
    listStart = head.links[0] ?? 0;
  } else if (head.id !== 'DL') throw unsupportedBlock(head);
  for (const dl of chain(bin, listStart, 'DL')) {
    claims?.claim(dl, false);
    const declared = bin.u32(dl.data + 4);
    // An unfinalised list may count blocks it never got to link.
    const count = lenientLists ? Math.min(declared, dl.links.length - 1) : declared;
    if (1 + count > dl.links.length) throw bin.corrupt(`##DL declares ${count} blocks but has fewer links`, dl.data + 4);
    for (const child of dl.links.slice(1, 1 + count)) {
      if (child === 0) continue;
      const block = readBlock(bin, child);
      if (block.id !== 'DT' && block.id !== 'DZ') throw unsupportedBlock(block);
      add(block);
    }
  }
  return { leaves, size, decompressed };
}

function unsupportedBlock(block: Mdf4Block): Error {
  const what: Record<string, string> = { SD: 'VLSD signal data', RD: 'reduction data', DV: 'column-oriented data (##DV)', DI: 'invalidation data (##DI)' };
  return new UnsupportedFeatureError('mdf4', what[block.id] ?? `data block ##${block.id}`);
}

function dzHeader(bin: BinaryView, block: Mdf4Block) {
  if (block.dataLength < DZ.data) throw bin.corrupt('##DZ header is too short', block.data);
  const orgType = String.fromCharCode(bin.u8(block.data), bin.u8(block.data + 1));
  if (orgType !== 'DT') throw new UnsupportedFeatureError('mdf4', `compressed ##${orgType} block`);
  const zipType = bin.u8(block.data + DZ.zipType);
  const zip = ZIP_TYPES[zipType];
  if (!zip) throw new UnsupportedFeatureError('mdf4', `##DZ zip type ${zipType} (MDF 4.3 defines 0 to 5: deflate, zstd and LZ4, each plain or transposed)`);
  if (zip.codec === 'zstd' && typeof zlib.zstdDecompressSync !== 'function') throw new UnsupportedFeatureError('mdf4', `${zip.name}-compressed data blocks (this runtime has no zstd)`);
  const zipParam = bin.u32(block.data + DZ.zipParam);
  const orgLength = bin.u64(block.data + DZ.orgLength, 'uncompressed length');
  const dataLength = bin.u64(block.data + DZ.dataLength, 'compressed length');
  if (dataLength > block.dataLength - DZ.data) throw bin.corrupt('##DZ compressed length exceeds the block', block.data + DZ.dataLength);
  if (orgLength > dataLength * zip.maxRatio + 64) throw bin.corrupt(`##DZ uncompressed length is impossible for its ${zip.name} compressed length`, block.data + DZ.orgLength);
  return { zip, zipParam, orgLength, dataLength };
}

/** Unpacks the leaves into one contiguous record buffer; a single DT is returned without copying. */
export function readRecords(bin: BinaryView, data: DataLeaves): Uint8Array {
  const { leaves } = data;
  if (leaves.length === 1 && leaves[0].id === 'DT') return bin.bytes.subarray(leaves[0].data, leaves[0].data + leaves[0].dataLength);
  const out = new Uint8Array(data.size);
  let at = 0;
  for (const leaf of leaves) {
    if (leaf.id === 'DT') {
      out.set(bin.bytes.subarray(leaf.data, leaf.data + leaf.dataLength), at);
      at += leaf.dataLength;
      continue;
    }
    const dz = dzHeader(bin, leaf);
    const packed = bin.bytes.subarray(leaf.data + DZ.data, leaf.data + DZ.data + dz.dataLength);
    const target = out.subarray(at, at + dz.orgLength);
    // Untransposed in place from a scratch copy; a plain LZ4 stream is decoded straight into the records.
    const unpacked = dz.zip.transposed || dz.zip.codec !== 'lz4' ? decompress(bin, leaf, dz, packed) : decompressInto(bin, leaf, dz, packed, target);
    if (unpacked !== target) {
      if (dz.zip.transposed) untranspose(unpacked, dz.zipParam, target);
      else target.set(unpacked);
    }
    at += dz.orgLength;
  }
  return out;
}

type DzHeader = ReturnType<typeof dzHeader>;

/** The decompressed bytes of one `##DZ` block, exactly its declared length (anything else is a damaged block). */
function decompress(bin: BinaryView, leaf: Mdf4Block, dz: DzHeader, packed: Uint8Array): Uint8Array {
  if (dz.zip.codec === 'lz4') return decompressInto(bin, leaf, dz, packed, new Uint8Array(dz.orgLength));
  let unpacked: Uint8Array;
  try {
    // Output past the declared length stops the codec there (it never grows beyond what the budget allowed).
    const options = { maxOutputLength: Math.max(1, dz.orgLength) };
    unpacked = dz.zip.codec === 'zstd' ? zlib.zstdDecompressSync(packed, options) : zlib.inflateSync(packed, options);
  } catch (error) {
    throw bin.corrupt(`##DZ ${dz.zip.codec} stream is damaged (${(error as Error).message})`, leaf.data + DZ.data);
  }
  if (unpacked.length !== dz.orgLength) throw bin.corrupt(`##DZ ${dz.zip.codec === 'deflate' ? 'inflated' : 'decompressed'} to ${unpacked.length} bytes, declared ${dz.orgLength}`, leaf.data + DZ.orgLength);
  return unpacked;
}

function decompressInto(bin: BinaryView, leaf: Mdf4Block, dz: DzHeader, packed: Uint8Array, target: Uint8Array): Uint8Array {
  let written: number;
  try {
    written = decodeLz4FramesInto(packed, target);
  } catch (error) {
    if (!(error instanceof Lz4FrameError)) throw error;
    throw bin.corrupt(`##DZ LZ4 stream is damaged (${error.reason}, at byte ${error.offset} of the stream)`, leaf.data + DZ.data);
  }
  if (written !== dz.orgLength) throw bin.corrupt(`##DZ decompressed to ${written} bytes, declared ${dz.orgLength}`, leaf.data + DZ.orgLength);
  return target;
}

/**
 * Transposed zip types store the bytes column by column (zipParam columns); the tail that fills no whole row is stored
 * as is. With fewer bytes than columns there is no whole row, nothing to transpose: the work is bounded by the bytes,
 * never by zipParam (up to 2^32 - 1, which the block need not hold).
 */
function untranspose(source: Uint8Array, columns: number, target: Uint8Array): void {
  const rows = columns === 0 ? 0 : Math.floor(source.length / columns);
  if (rows === 0) {
    target.set(source);
    return;
  }
  for (let c = 0; c < columns; c++) {
    const from = c * rows;
    for (let r = 0, to = c; r < rows; r++, to += columns) target[to] = source[from + r];
  }
  target.set(source.subarray(rows * columns), rows * columns);
}
