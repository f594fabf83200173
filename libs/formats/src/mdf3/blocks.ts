import type { BinaryView } from '../binary-view';

/**
 * An MDF 3 block: a 2-character id ("HD", "DG", "CG", "CN", "CC", "TX", ...) and a u16 size, then fixed fields; links
 * are u32 file offsets. Block fields are little-endian (the IDBLOCK byte order is the default of the signal values).
 */
export interface Mdf3Block {
  id: string;
  offset: number;
  /** Bytes of the block, its 4-byte header included. */
  size: number;
}

const HEADER = 4;

/** The block at `offset`, checked to be `expected` and to lie inside the file; at least `minSize` bytes. */
export function readBlock(bin: BinaryView, offset: number, expected: string, minSize = HEADER): Mdf3Block {
  bin.require(offset, HEADER, `${expected}BLOCK header`);
  const id = String.fromCharCode(bin.bytes[offset], bin.bytes[offset + 1]);
  if (id !== expected) throw bin.corrupt(`expected a ${expected}BLOCK, found "${printable(id)}"`, offset);
  const size = bin.u16(offset + 2);
  if (size < minSize) throw bin.corrupt(`${id}BLOCK of ${size} bytes is shorter than its ${minSize} bytes of fields`, offset + 2);
  bin.require(offset, size, `${id}BLOCK`);
  return { id, offset, size };
}

/** A link field: 0 (none) or an offset inside the file. */
export function link(bin: BinaryView, at: number): number {
  const value = bin.u32(at);
  if (value >= bin.length) throw bin.corrupt('link points past the end of the file', at);
  return value;
}

/** Follows a next-link chain (the next link at `nextAt` bytes into each block), refusing to loop. */
export function* chain(bin: BinaryView, first: number, id: string, minSize: number, nextAt = 4): Generator<Mdf3Block> {
  const seen = new Set<number>();
  for (let at = first; at !== 0; ) {
    if (seen.has(at)) throw bin.corrupt(`${id}BLOCK chain loops back on itself`, at);
    seen.add(at);
    const block = readBlock(bin, at, id, minSize);
    yield block;
    at = link(bin, at + nextAt);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Text bytes cut at the first NUL and trimmed: UTF-8 when they are valid UTF-8 (asammdf writes it), else Latin-1. */
export function decodeText(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  const text = nul >= 0 ? bytes.subarray(0, nul) : bytes;
  try {
    return utf8.decode(text).trim();
  } catch {
    return latin1.decode(text).trim();
  }
}

/** A fixed-size text field of a block. */
export function textField(bin: BinaryView, offset: number, size: number): string {
  bin.require(offset, size, 'text field');
  return decodeText(bin.bytes.subarray(offset, offset + size));
}

/**
 * Reads TXBLOCKs, each once: a hostile file may point thousands of channels at one 64 KiB text, which must not cost
 * thousands of decodings.
 */
export class TextBlocks {
  private readonly cache = new Map<number, string>();

  constructor(private readonly bin: BinaryView) {}

  read(offset: number): string {
    if (offset === 0) return '';
    const known = this.cache.get(offset);
    if (known !== undefined) return known;
    const block = readBlock(this.bin, offset, 'TX');
    const text = decodeText(this.bin.bytes.subarray(offset + HEADER, offset + block.size));
    this.cache.set(offset, text);
    return text;
  }
}

function printable(id: string): string {
  return id.replace(/[^\x20-\x7e]/g, '?');
}
