import type { BinaryView } from '../binary-view';
import { chain, type Mdf4Block, readBlock } from './blocks';

/** The most values one array sample may have: the binary channel body gives the dimension as a u16. */
export const MAX_ARRAY_VALUES = 0xffff;

/** An array channel stored in its record (##CA, CN template): element k of a sample at byteOffset + k × stride. */
export interface ArrayLayout {
  shape: number[];
  stride: number;
}

/** What a channel's composition link holds: nothing, a structure's first field, an array, or what is not read. */
export type Composition =
  | { kind: 'none' }
  | { kind: 'structure'; firstField: number }
  | { kind: 'array'; layout: ArrayLayout }
  | { kind: 'unsupported'; feature: string };

const CA = { type: 0, storage: 1, ndim: 2, flags: 4, byteOffsetBase: 8, dims: 16 } as const;
/** ca_flags bits whose information is descriptive only (axes): the values still read as a plain array. */
const DESCRIPTIVE_FLAGS = 0x10 | 0x20;

export function readComposition(bin: BinaryView, link: number): Composition {
  if (link === 0) return { kind: 'none' };
  const block = readBlock(bin, link);
  if (block.id === 'CN') return { kind: 'structure', firstField: link };
  if (block.id !== 'CA') return { kind: 'unsupported', feature: `composition ##${block.id}` };
  return arrayOf(bin, block);
}

function arrayOf(bin: BinaryView, ca: Mdf4Block): Composition {
  if (ca.dataLength < CA.dims) throw bin.corrupt('##CA data section is too short', ca.data);
  const type = bin.u8(ca.data + CA.type);
  const storage = bin.u8(ca.data + CA.storage);
  const ndim = bin.u16(ca.data + CA.ndim);
  const flags = bin.u32(ca.data + CA.flags);
  const stride = bin.i32(ca.data + CA.byteOffsetBase);
  if (type !== 0) return { kind: 'unsupported', feature: `arrays of ca_type ${type} (axes, look-up tables, classification results)` };
  if (storage !== 0) return { kind: 'unsupported', feature: storage === 1 ? 'arrays stored as CG templates' : 'arrays stored as DG templates' };
  if (flags & ~DESCRIPTIVE_FLAGS) return { kind: 'unsupported', feature: `arrays with ca_flags 0x${flags.toString(16)} (dynamic size, quantities or inverse layout)` };
  if ((ca.links[0] ?? 0) !== 0) return { kind: 'unsupported', feature: 'nested arrays' };
  if (ndim === 0) throw bin.corrupt('##CA has no dimension', ca.data + CA.ndim);
  if (ca.dataLength < CA.dims + 8 * ndim) throw bin.corrupt(`##CA declares ${ndim} dimensions but has room for fewer`, ca.data + CA.ndim);
  const shape: number[] = [];
  let values = 1;
  for (let k = 0; k < ndim; k++) {
    const size = bin.u64(ca.data + CA.dims + 8 * k, 'array dimension');
    if (size === 0) throw bin.corrupt(`##CA dimension ${k} has size 0`, ca.data + CA.dims + 8 * k);
    values *= size;
    if (values > MAX_ARRAY_VALUES) return { kind: 'unsupported', feature: `arrays of more than ${MAX_ARRAY_VALUES} values per sample` };
    shape.push(size);
  }
  // Elements at distinct offsets inside the record bound the decoded values by the record bytes.
  if (values > 1 && stride === 0) throw bin.corrupt('array elements all at one offset (ca_byte_offset_base 0)', ca.data + CA.byteOffsetBase);
  return { kind: 'array', layout: { shape, stride } };
}

/** Deepest nesting of structures read (a structure of structures of ...); deeper is refused as corrupt. */
export const MAX_STRUCTURE_DEPTH = 16;

/**
 * The ##CN chain of a structure's fields. `seen` holds every ##CN already read in the group, so a field list that
 * leads back to a channel is refused instead of read forever.
 */
export function* structureFields(bin: BinaryView, firstField: number, seen: Set<number>): Generator<Mdf4Block> {
  for (const cn of chain(bin, firstField, 'CN')) {
    if (seen.has(cn.offset)) throw bin.corrupt('a structure field leads back to a channel already read', cn.offset);
    seen.add(cn.offset);
    yield cn;
  }
}
