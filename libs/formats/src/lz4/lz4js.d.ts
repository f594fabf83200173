// lz4js 0.2.0 ships no types; only the two block primitives the frame codec uses are declared.
declare module 'lz4js' {
  /** Decodes one LZ4 block src[sIndex, sIndex + sLength) into dst from dIndex; returns the new end of dst. */
  export function decompressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, dIndex: number): number;
  /** Encodes src[sIndex, sIndex + sLength) into dst from 0; returns the encoded length, 0 when nothing matched. */
  export function compressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, hashTable: Uint32Array): number;
  export function compressBound(n: number): number;
}
