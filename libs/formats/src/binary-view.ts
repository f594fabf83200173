import { CorruptDataFileError } from './errors';

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** Bounds-checked little/big-endian reads that fail as CorruptDataFileError instead of a RangeError. */
export class BinaryView {
  readonly view: DataView;
  readonly length: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly format: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.byteLength;
  }

  corrupt(reason: string, offset: number): CorruptDataFileError {
    return new CorruptDataFileError(this.format, reason, offset);
  }

  /** Throws unless [offset, offset + size) lies inside the input. */
  require(offset: number, size: number, what: string): void {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 0 || offset + size > this.length) {
      throw this.corrupt(`${what} (${size} bytes) runs past the end of the file (${this.length} bytes)`, Number.isSafeInteger(offset) ? offset : -1);
    }
  }

  u8(offset: number): number {
    this.require(offset, 1, 'field');
    return this.bytes[offset];
  }
  u16(offset: number, little = true): number {
    this.require(offset, 2, 'field');
    return this.view.getUint16(offset, little);
  }
  i16(offset: number, little = true): number {
    this.require(offset, 2, 'field');
    return this.view.getInt16(offset, little);
  }
  u32(offset: number, little = true): number {
    this.require(offset, 4, 'field');
    return this.view.getUint32(offset, little);
  }
  i32(offset: number, little = true): number {
    this.require(offset, 4, 'field');
    return this.view.getInt32(offset, little);
  }
  f64(offset: number, little = true): number {
    this.require(offset, 8, 'field');
    return this.view.getFloat64(offset, little);
  }
  /** u64 as a Number; values beyond 2^53 cannot be valid sizes or offsets, so they are reported as corrupt. */
  u64(offset: number, what = 'field'): number {
    this.require(offset, 8, what);
    const low = this.view.getUint32(offset, true);
    const high = this.view.getUint32(offset + 4, true);
    if (high >= 0x200000) throw this.corrupt(`${what} is larger than 2^53`, offset);
    return high * 0x100000000 + low;
  }

  /** u64 for values that are not sizes (timestamps): above 2^53 it rounds to the nearest double. */
  u64Value(offset: number): number {
    this.require(offset, 8, 'field');
    return this.view.getUint32(offset + 4, true) * 0x100000000 + this.view.getUint32(offset, true);
  }

  /** Fixed-size text field, cut at the first NUL and trimmed. */
  latin1(offset: number, size: number): string {
    this.require(offset, size, 'text field');
    return decodeText(latin1, this.bytes.subarray(offset, offset + size));
  }
  utf8(offset: number, size: number): string {
    this.require(offset, size, 'text field');
    return decodeText(utf8, this.bytes.subarray(offset, offset + size));
  }
}

function decodeText(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return decoder.decode(nul >= 0 ? bytes.subarray(0, nul) : bytes).trim();
}

/** A copy of `bytes` that starts on an 8-byte boundary, so typed-array views of any width can be laid on it. */
export function alignedCopy(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
