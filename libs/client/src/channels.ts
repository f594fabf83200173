import { type ChannelSeries, decodeChannels } from '@pitwall/channels';

export { CHANNELS_MEDIA_TYPE, physicalSamples, toChannelRecord, type ChannelRecord, type ChannelSeries, type LinearConversion } from '@pitwall/channels';

/**
 * Decodes the binary body of a channel read (`Accept: application/x-service-channels`, docs/binary-channels.md)
 * into one series per channel whose samples, times and gaps are typed-array views on `body` (no copy). Raw blocks
 * keep their stored integers and carry `conversion`; `physicalSamples(series)` applies it.
 */
export function decodeChannelsBody(body: ArrayBuffer | Uint8Array): ChannelSeries[] {
  return decodeChannels(body);
}
