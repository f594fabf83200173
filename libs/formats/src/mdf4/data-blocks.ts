import { inflateSync } from 'node:zlib';
import type { BinaryView } from '../binary-view';
import { UnsupportedFeatureError } from '../errors';
import { chain, type Mdf4Block, readBlock } from './blocks';

/** Deflate cannot expand beyond about 1032:1, so a larger declared size is a lie, refused before inflating. */
const MAX_DEFLATE_RATIO = 1032;

const DZ = { orgType: 0, zipType: 2, zipParam: 4, orgLength: 8, dataLength: 16, data: 24 } as const;

/** The DT/DZ leaves of a data link, in order, and the record bytes they hold once unpacked. */
export interface DataLeaves {
  leaves: Mdf4Block[];
  size: number;
}

/**
 * The leaves of a data link: a list that names one block twice is refused (a ##DL repeating one ##DT would make a
 * small file unpack to any size), so the leaves' bytes add up to at most the file's (or, deflated, its bound).
 */
export function dataLeaves(bin: BinaryView, link: number): DataLeaves {
  const leaves: Mdf4Block[] = [];
  const named = new Set<number>();
  let size = 0;
  const add = (block: Mdf4Block) => {
    if (named.has(block.offset)) throw bin.corrupt(`data list names the ##${block.id} block at ${block.offset} twice`, block.offset);
    named.add(block.offset);
    leaves.push(block);
    size += block.id === 'DT' ? block.dataLength : dzHeader(bin, block).orgLength;
  };
  if (link === 0) return { leaves, size };
  const head = readBlock(bin, link);
  if (head.id === 'DT' || head.id === 'DZ') {
    add(head);
    return { leaves, size };
  }
  let listStart = link;
  if (head.id === 'HL') listStart = head.links[0] ?? 0;
  else if (head.id !== 'DL') throw unsupportedBlock(head);
  for (const dl of chain(bin, listStart, 'DL')) {
    const count = bin.u32(dl.data + 4);
    if (1 + count > dl.links.length) throw bin.corrupt(`##DL declares ${count} blocks but has fewer links`, dl.data + 4);
    for (const child of dl.links.slice(1, 1 + count)) {
      if (child === 0) continue;
      const block = readBlock(bin, child);
      if (block.id !== 'DT' && block.id !== 'DZ') throw unsupportedBlock(block);
      add(block);
    }
  }
  return { leaves, size };
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
  if (zipType !== 0 && zipType !== 1) throw new UnsupportedFeatureError('mdf4', `zip type ${zipType}`);
  const zipParam = bin.u32(block.data + DZ.zipParam);
  const orgLength = bin.u64(block.data + DZ.orgLength, 'uncompressed length');
  const dataLength = bin.u64(block.data + DZ.dataLength, 'compressed length');
  if (dataLength > block.dataLength - DZ.data) throw bin.corrupt('##DZ compressed length exceeds the block', block.data + DZ.dataLength);
  if (orgLength > dataLength * MAX_DEFLATE_RATIO + 64) throw bin.corrupt('##DZ uncompressed length is impossible for its compressed length', block.data + DZ.orgLength);
  return { zipType, zipParam, orgLength, dataLength };
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
    let inflated: Uint8Array;
    try {
      inflated = inflateSync(packed, { maxOutputLength: Math.max(1, dz.orgLength) });
    } catch (error) {
      throw bin.corrupt(`##DZ deflate stream is damaged (${(error as Error).message})`, leaf.data + DZ.data);
    }
    if (inflated.length !== dz.orgLength) throw bin.corrupt(`##DZ inflated to ${inflated.length} bytes, declared ${dz.orgLength}`, leaf.data + DZ.orgLength);
    if (dz.zipType === 1) untranspose(inflated, dz.zipParam, out.subarray(at, at + inflated.length));
    else out.set(inflated, at);
    at += inflated.length;
  }
  return out;
}

/** Zip type 1 stores the bytes column by column (zipParam columns); the tail that fills no whole row is stored as is. */
function untranspose(source: Uint8Array, columns: number, target: Uint8Array): void {
  if (columns === 0) {
    target.set(source);
    return;
  }
  const rows = Math.floor(source.length / columns);
  for (let c = 0; c < columns; c++) {
    const from = c * rows;
    for (let r = 0; r < rows; r++) target[r * columns + c] = source[from + r];
  }
  target.set(source.subarray(rows * columns), rows * columns);
}
