/**
 * @pitwall/channels: the channel records of the data file reads, shared by the service and the client (no Node
 * APIs). A `ChannelSeries` is one channel of a read (physical samples, or raw stored values with their linear
 * conversion), an `EventSeries` one text or byte channel ((time, value) events); `toChannelRecord` / `toEventRecord`
 * (either: `toReadRecord`) make the JSON record (null for gaps); `encodeChannels` / `decodeChannels` are the
 * binary body of docs/binary-channels.md (decoded as views, no copy); `m4` / `downsampleSeries` make the
 * display-sized series of `maxPoints` reads.
 */
export { applyConversion, convertInto, IDENTITY, isIdentity, type LinearConversion, type PhysicalSampleArray, type RawSampleArray } from './conversion';
export { compactSamples, physicalSamples, toChannelRecord, type ChannelRecord, type ChannelSeries, type ParameterUse } from './series';
export { eventValue, isEventSeries, toEventRecord, toReadRecord, type EventKind, type EventRecord, type EventSeries, type ReadSeries } from './events';
export { CHANNELS_MAGIC, CHANNELS_MEDIA_TYPE, CHANNELS_VERSION, ChannelsDecodeError, decodeChannels, encodeChannels, encodeChannelsChunks, encodedChannelsLength, MAX_CHANNEL_TEXT_BYTES } from './binary';
export { channelRecordsJsonChunks } from './records-json';
export { downsampleSeries, m4, type M4Input, type M4Options, type M4Output } from './m4';
export { toNanosecond } from './time';
export { ChannelSuggester, SUGGEST_CELL_BUDGET, SUGGEST_MAX_ASKED, SUGGEST_MAX_LENGTH, SUGGEST_MAX_NAMES } from './suggest';
