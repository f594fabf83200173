// lz4js ships no types: its declaration sits beside this file, and every other file imports the blocks from here.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./lz4js.d.ts" />
export { compressBlock, compressBound, decompressBlock } from 'lz4js';
