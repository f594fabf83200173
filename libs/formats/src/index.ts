/**
 * @pitwall/formats: telemetry readers. Pure functions from bytes to channels (no I/O, no service code), safe to
 * run in a worker thread; every decoded array owns its buffer, so results can be transferred.
 *
 * Open and read:
 * - `openDataFile(bytes: Uint8Array | Uint8Array[], options?: { ldx?: Uint8Array | string }): DataFile`
 *   recognises MoTeC `.ld`, ASAM MDF 3.x and 4.x, MoTeC CSV and generic CSV from content; an array is a per-lap dataset.
 *   The DataFile carries `format`, `properties`, `startTime`, `duration`, `laps` and the `channels` catalogue;
 *   `readChannel(name): ChannelData` decodes one channel's physical samples on demand.
 * - All times (startTime, lap bounds, time bases, windows) are seconds on the file's own time axis.
 *
 * Slice (no interpolation, half-open):
 * - `sliceByLap(data, file.laps, lapIndex): ChannelSlice`
 * - `sliceByWindow(data, start, duration): ChannelSlice` for start <= t < start + duration.
 *
 * Errors (all extend DataFileError with a `code`): NotADataFileError 'NOT_A_DATA_FILE', CorruptDataFileError
 * 'CORRUPT' (reason, offset), UnsupportedFeatureError 'UNSUPPORTED' (feature), ChannelNotFoundError
 * 'CHANNEL_NOT_FOUND', InvalidSliceError 'INVALID_SLICE'.
 *
 * Random access (data file reads): `openDataFileFromSource(source: ByteSource)` opens over `bytesSource(bytes)`,
 * `fileHandleSource(handle)` or any ranged read; `.ld` reads only its catalogue and the sample ranges asked for.
 * `readStored(name, {from, to})` gives stored values + linear conversion (`StoredChannel`), cached by
 * `StoredChannelCache` (LRU in bytes, keyed by blob hash and channel); `physicalChannel` converts a slice only.
 * `resolveScope` + `scopeSampleRange` turn lapIndex / [start, start+duration) / whole file into sample ranges;
 * `buildMetadataRecord` makes the metadata record.
 *
 * Write: `writeLdFile(input)` / `encodeLdFile(input)` (streaming chunks) produce MoTeC `.ld` bytes;
 * `createDemoLdFile()` is a small realistic outing for demo seeding.
 *
 * Tests: `@pitwall/formats/testing` exports `buildMdf4File(spec)` and `buildMdf3File(spec)` for MDF inputs in any supported layout.
 * Details, supported subsets and benchmark numbers: docs/formats.md.
 */
export * from './errors';
export type {
  ChannelData,
  ChannelInfo,
  ChannelLabel,
  DataFile,
  DataFileFormat,
  EventData,
  EventKind,
  FileProperties,
  Lap,
  LapKind,
  SampleArray,
  SampleDataType,
  TimeBase,
} from './model';
export { toNanosecond } from '@pitwall/channels';
export { openDataFile, type OpenOptions } from './open';
export { sampleIndexRange, sliceByLap, sliceByWindow, type ChannelSlice } from './slice';
export { bytesSource, type ByteSource, CountingSource, fileHandleSource } from './source/byte-source';
export { channelFor, fromDataFile, type RandomAccessDataFile, type SampleRange } from './access/random-access';
export { openDataFileFromSource } from './access/open-source';
export { openLdSource } from './access/ld-source-reader';
export { isLdFile } from './ld/ld-reader';
export { LDX_FORMAT, ldxBeaconTimes } from './ld/ldx';
export { eventBytes, eventsInScope, type ScopedEvents, sliceEvents } from './access/events';
export { physicalChannel, sliceStored, type StoredChannel, storedChannelBytes, storedFromChannelData } from './access/stored-channel';
export { ByteLru } from './access/byte-lru';
export { StoredChannelCache } from './access/stored-channel-cache';
export { type ReadScope, resolveScope, scopeSampleRange, type ScopeWindow } from './access/scope';
export { buildMetadataRecord, type DataFileEcho, type DataFileMetadataRecord, metadataChannels } from './access/metadata';
export { encodeLdFile, writeLdFile, type LdChannelInput, type LdFileInput } from './ld/ld-writer';
export { createDemoLdFile, type DemoLdOptions } from './ld/demo-ld';
export * from './lz4';
