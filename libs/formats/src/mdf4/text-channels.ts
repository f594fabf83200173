import type { BinaryView } from '../binary-view';
import { UnsupportedFeatureError } from '../errors';
import type { EventKind } from '../model';
import { chain, type Mdf4Block, readBlock } from './blocks';
import { firstOverlap } from '../spans';
import { overlapping } from './data-blocks';

/** cn_data_type of text and byte channels: 6 Latin-1, 7 UTF-8, 8 UTF-16 LE, 9 UTF-16 BE strings, 10 byte arrays. */
export function eventKindOf(dataType: number): EventKind | undefined {
  if (dataType >= 6 && dataType <= 9) return 'text';
  if (dataType === 10) return 'bytes';
  return undefined;
}

/** What decoding the values of a text or byte channel needs from its ##CN. */
export interface EventLayout {
  dataType: number;
  /** cn_type: 0 fixed length in the record, 1 VLSD (the record holds an offset into the signal data). */
  cnType: number;
  byteOffset: number;
  /** Bytes in the record: the value (fixed length) or the u64 offset (VLSD). */
  byteCount: number;
  /** cn_data: the signal data of a VLSD channel. */
  dataLink: number;
}

const utf8Decoder = new TextDecoder('utf-8');

/** Text grows at most 2× as UTF-8 (Latin-1 above 0x7F); more than this means values repeat, refused as corrupt. */
const MAX_VALUE_BYTES_PER_FILE_BYTE = 4;
const utf16le = new TextDecoder('utf-16le');
const utf16be = new TextDecoder('utf-16be');
const utf8 = new TextEncoder();

/**
 * The values of a text or byte channel, one per record, as offsets into one byte array: text as UTF-8 without its
 * terminating zeros, bytes as stored. VLSD values are read from the channel's ##SD (or a ##DL of ##SD). The values are
 * written straight into that array as they are read (nothing is kept per record but its offset), so n records of
 * empty values cost their 4-byte offsets, not an object each.
 */
export function decodeEventValues(bin: BinaryView, records: Uint8Array, recordSize: number, n: number, c: EventLayout): { offsets: Uint32Array; bytes: Uint8Array } {
  const signal = c.cnType === 1 ? signalData(bin, c.dataLink) : null;
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  // Records may all name one large VLSD value: the values read stay within a bound of the file's size (and of the
  // u32 offsets).
  const cap = Math.min(MAX_VALUE_BYTES_PER_FILE_BYTE * bin.length, 0xffff_ffff);
  const offsets = new Uint32Array(n + 1);
  // Doubled as the values need: at most twice their bytes (and the cap) are ever held.
  let bytes = new Uint8Array(Math.min(cap, signal ? signal.length : n * c.byteCount, 1 << 16));
  let total = 0;
  for (let i = 0, at = c.byteOffset; i < n; i++, at += recordSize) {
    let raw: Uint8Array;
    if (signal) {
      const offset = view.getUint32(at, true) + view.getUint32(at + 4, true) * 4294967296;
      if (offset + 4 > signal.length) throw bin.corrupt(`VLSD offset ${offset} of record ${i} is past the channel's ${signal.length} bytes of signal data`, c.dataLink);
      const length = new DataView(signal.buffer, signal.byteOffset + offset, 4).getUint32(0, true);
      if (offset + 4 + length > signal.length) throw bin.corrupt(`VLSD value of record ${i} (${length} bytes) runs past the signal data`, c.dataLink);
      raw = signal.subarray(offset + 4, offset + 4 + length);
    } else {
      raw = records.subarray(at, at + c.byteCount);
    }
    const value = c.dataType === 10 || raw.length === 0 ? raw : toUtf8(raw, c.dataType);
    if (total + value.length > cap) throw bin.corrupt(`the values of records 0..${i} add up to more than ${cap} bytes (${MAX_VALUE_BYTES_PER_FILE_BYTE} times the file's, at most 2^32 - 1)`, c.byteOffset);
    if (total + value.length > bytes.length) {
      const grown = new Uint8Array(Math.min(cap, Math.max(total + value.length, 2 * bytes.length)));
      grown.set(bytes.subarray(0, total));
      bytes = grown;
    }
    bytes.set(value, total);
    total += value.length;
    offsets[i + 1] = total;
  }
  // Cut to the values (each typed array handed out owns its buffer).
  return { offsets, bytes: total === bytes.length ? bytes : bytes.slice(0, total) };
}

/** A string as UTF-8, cut at its first terminating zero (a code unit of zero for UTF-16). */
function toUtf8(raw: Uint8Array, dataType: number): Uint8Array {
  if (dataType === 8 || dataType === 9) {
    let end = 0;
    while (end + 1 < raw.length && (raw[end] !== 0 || raw[end + 1] !== 0)) end += 2;
    return utf8.encode((dataType === 8 ? utf16le : utf16be).decode(raw.subarray(0, end)));
  }
  const zero = raw.indexOf(0);
  const text = zero >= 0 ? raw.subarray(0, zero) : raw;
  // ASCII (empty included) is the same in Latin-1 and UTF-8: a view, which the caller copies, not a new array per value.
  if (isAscii(text)) return text;
  // Invalid UTF-8 becomes U+FFFD here, so the JSON and the binary answers carry the same text.
  return dataType === 6 ? latin1ToUtf8(text) : utf8.encode(utf8Decoder.decode(text));
}

function isAscii(text: Uint8Array): boolean {
  for (let i = 0; i < text.length; i++) if (text[i] >= 0x80) return false;
  return true;
}

/** ISO 8859-1 is the first 256 code points (TextDecoder's 'latin1' is windows-1252, which differs at 0x80-0x9F). */
function latin1ToUtf8(text: Uint8Array): Uint8Array {
  let high = 0;
  for (const b of text) if (b >= 0x80) high++;
  const out = new Uint8Array(text.length + high);
  let at = 0;
  for (const b of text) {
    if (b < 0x80) out[at++] = b;
    else {
      out[at++] = 0xc0 | (b >> 6);
      out[at++] = 0x80 | (b & 0x3f);
    }
  }
  return out;
}

/** The data sections of a VLSD channel's signal data blocks, one after another (one ##SD: a view, no copy). */
function signalData(bin: BinaryView, link: number): Uint8Array {
  if (link === 0) return new Uint8Array(0);
  const head = readBlock(bin, link);
  if (head.id === 'SD') return bin.bytes.subarray(head.data, head.data + head.dataLength);
  if (head.id !== 'DL') throw new UnsupportedFeatureError('mdf4', head.id === 'DZ' || head.id === 'HL' ? 'compressed VLSD signal data' : `VLSD signal data in ##${head.id}`);
  const blocks: Mdf4Block[] = [];
  const named = new Set<number>();
  for (const dl of chain(bin, link, 'DL')) {
    const count = bin.u32(dl.data + 4);
    if (1 + count > dl.links.length) throw bin.corrupt(`##DL declares ${count} blocks but has fewer links`, dl.data + 4);
    for (const child of dl.links.slice(1, 1 + count)) {
      if (child === 0) continue;
      if (named.has(child)) throw bin.corrupt(`data list names the block at ${child} twice`, child);
      named.add(child);
      const block = readBlock(bin, child);
      if (block.id !== 'SD') throw new UnsupportedFeatureError('mdf4', block.id === 'DZ' ? 'compressed VLSD signal data' : `VLSD signal data in ##${block.id}`);
      blocks.push(block);
    }
  }
  // Nested ##SD blocks would add up to about k² / 2 headers' bytes: apart, they add up to at most the file's.
  const overlap = firstOverlap(blocks);
  if (overlap) throw bin.corrupt(`signal data list names blocks that overlap: ${overlapping(overlap)}`, overlap[1].offset);
  const parts = blocks.map((block) => bin.bytes.subarray(block.data, block.data + block.dataLength));
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
