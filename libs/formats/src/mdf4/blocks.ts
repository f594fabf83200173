import type { BinaryView } from '../binary-view';
import { firstTxText } from '../xml-text';

/**
 * Generic MDF 4 block: "##XX" id, 4 reserved bytes, u64 length, u64 link count, links, then the data section. Each
 * block of a file is parsed once (see readBlock) and shared by whoever reads it: it is frozen.
 */
export interface Mdf4Block {
  readonly id: string;
  readonly offset: number;
  readonly length: number;
  readonly links: readonly number[];
  /** Absolute offset of the data section (after the links). */
  readonly data: number;
  readonly dataLength: number;
}

const BLOCK_HEADER = 24;

/**
 * The block at `offset` (of one of the `expected` ids), its links checked to lie inside the file. A block is parsed
 * once per file: blocks are linked from many others (a hostile file may point every channel's composition, or every
 * text of a conversion, at one block of 100,000 links), and parsing its links again for each would cost their number
 * times the number of blocks linking to it.
 */
export function readBlock(bin: BinaryView, offset: number, expected?: readonly string[]): Mdf4Block {
  bin.require(offset, BLOCK_HEADER, 'block header');
  const b = bin.bytes;
  if (b[offset] !== 0x23 || b[offset + 1] !== 0x23) throw bin.corrupt('block does not start with "##"', offset);
  const id = String.fromCharCode(b[offset + 2], b[offset + 3]);
  if (expected && !expected.includes(id)) throw bin.corrupt(`expected a ${expected.join('/')} block, found ##${id}`, offset);
  return parsedBlock(bin, offset, () => parseBlock(bin, offset, id));
}

/**
 * What a file's block at an offset was parsed to, kept per file (for as long as it is read) so that a block linked
 * from many others is parsed once: `(bin, offset, parse)` answers the kept value, or parses and keeps it.
 */
export function perFile<V>(): (bin: BinaryView, offset: number, parse: () => V) => V {
  const byFile = new WeakMap<BinaryView, Map<number, V>>();
  return (bin, offset, parse) => {
    let kept = byFile.get(bin);
    if (!kept) byFile.set(bin, (kept = new Map()));
    if (kept.has(offset)) return kept.get(offset) as V;
    const value = parse();
    kept.set(offset, value);
    return value;
  };
}

const parsedBlock = perFile<Mdf4Block>();

function parseBlock(bin: BinaryView, offset: number, id: string): Mdf4Block {
  const length = bin.u64(offset + 8, 'block length');
  const linkCount = bin.u64(offset + 16, 'block link count');
  if (length < BLOCK_HEADER + linkCount * 8) throw bin.corrupt(`block ##${id} is shorter than its ${linkCount} links`, offset + 8);
  bin.require(offset, length, `block ##${id}`);
  const links: number[] = [];
  for (let i = 0; i < linkCount; i++) {
    const link = bin.u64(offset + BLOCK_HEADER + i * 8, 'link');
    if (link >= bin.length) throw bin.corrupt(`link of ##${id} points past the end of the file`, offset + BLOCK_HEADER + i * 8);
    links.push(link);
  }
  const data = offset + BLOCK_HEADER + linkCount * 8;
  return Object.freeze({ id, offset, length, links: Object.freeze(links), data, dataLength: offset + length - data });
}

/** Follows a next-link chain, refusing to loop. */
export function* chain(bin: BinaryView, first: number, id: string, nextLink = 0): Generator<Mdf4Block> {
  const seen = new Set<number>();
  for (let at = first; at !== 0; ) {
    if (seen.has(at)) throw bin.corrupt(`##${id} chain loops back on itself`, at);
    seen.add(at);
    const block = readBlock(bin, at, [id]);
    yield block;
    at = block.links[nextLink] ?? 0;
  }
}

/**
 * Text of a ##TX block (UTF-8) or of an ##MD block (XML; the <TX> element when there is one), each block decoded once
 * per file: a hostile file may point thousands of names, units or conversion texts at one large block, which must not
 * cost thousands of decodings (nor thousands of copies of its text).
 */
export function readText(bin: BinaryView, offset: number): string {
  if (offset === 0) return '';
  return decodedText(bin, offset, () => decodeTextBlock(bin, offset));
}

/** The texts of each file's blocks (strings: shared safely). */
const decodedText = perFile<string>();

function decodeTextBlock(bin: BinaryView, offset: number): string {
  const block = readBlock(bin, offset, ['TX', 'MD']);
  const text = bin.utf8(block.data, block.dataLength);
  if (block.id === 'TX') return text;
  const tx = firstTxText(text);
  return tx !== undefined ? unescapeXml(tx).trim() : text;
}

/** The raw XML of an ##MD block, or the text of a ##TX block. */
export function readMetadata(bin: BinaryView, offset: number): string {
  if (offset === 0) return '';
  const block = readBlock(bin, offset, ['TX', 'MD']);
  return bin.utf8(block.data, block.dataLength);
}

export function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e] ?? '');
}
