export { DEFAULT_LZ4_LIMITS, decodeLz4Frames, type Lz4Limits, validateLz4Frames, type Lz4StreamSummary } from './lz4-frame-decoder';
export { decodeLz4FramesInto } from './lz4-frame-into';
export { encodeLz4Frame, compressLz4 } from './lz4-frame-encoder';
export { Lz4FrameError, lz4Refusal, type Lz4FrameErrorCode, type Lz4LimitName, type Lz4Refusal } from './lz4-frame-error';
export { Xxh32, xxh32 } from './xxh32';
