import { decodeChannels, type ReadSeries } from '@pitwall/channels';

export {
  CHANNELS_MEDIA_TYPE,
  eventValue,
  isEventSeries,
  physicalSamples,
  toChannelRecord,
  toEventRecord,
  toReadRecord,
  type ChannelRecord,
  type ChannelSeries,
  type EventRecord,
  type EventSeries,
  type LinearConversion,
  type ReadSeries,
} from '@pitwall/channels';

/**
 * Decodes the binary body of a channel read (`Accept: application/x-service-channels`, docs/binary-channels.md,
 * layouts 1 and 2) into one series per channel whose arrays are typed-array views on `body` (no copy). Numeric
 * channels are ChannelSeries: raw blocks keep their stored integers and carry `conversion`; `physicalSamples(series)`
 * applies it. Text and byte channels are EventSeries (`isEventSeries`): offsets, bytes and times; `eventValue(series, i)`.
 */
export function decodeChannelsBody(body: ArrayBuffer | Uint8Array): ReadSeries[] {
  return decodeChannels(body);
}

/** Options of a single-channel read: lapIndex, or start/duration (seconds), or neither (whole file); maxPoints; binary. */
export interface ChannelReadOptions {
  lapIndex?: number;
  start?: number;
  duration?: number;
  /** At most this many points (M4); never applied unless asked. */
  maxPoints?: number;
  /** Every channel interpolated onto one time base of this many Hz (docs/api.md "rate"). */
  rate?: number;
  /** Ask for the binary body; the result is then ReadSeries[] (typed-array views, no copy). */
  binary?: boolean;
  /** Ask for the Arrow IPC stream (docs/api.md "Arrow"); the result is then its bytes, for apache-arrow's `tableFromIPC`. */
  arrow?: boolean;
}

/**
 * What a channel read answers for its options `O` (`J`: its JSON answer): the Arrow stream's bytes with `arrow: true`
 * (arrow wins over binary, as the request does), decoded series with `binary: true`, the JSON answer with neither; any
 * of the three when the options are only known as booleans.
 */
export type ChannelReadAnswer<O extends { binary?: boolean; arrow?: boolean }, J> =
  OptionOf<O, 'arrow'> extends true
    ? Uint8Array
    : OptionOf<O, 'arrow'> extends false | undefined
      ? OptionOf<O, 'binary'> extends true
        ? ReadSeries[]
        : OptionOf<O, 'binary'> extends false | undefined
          ? J
          : J | ReadSeries[]
      : J | ReadSeries[] | Uint8Array;

/** An option's type in `O`, undefined when `O` does not have it (options given as `{ lapIndex: 1 }`). */
type OptionOf<O, K extends string> = K extends keyof O ? O[K] : undefined;

/** Options of a batch read (the scope is in its body). */
export interface ChannelsReadOptions {
  maxPoints?: number;
  rate?: number;
  binary?: boolean;
  /** The Arrow IPC stream's bytes (one record batch per time base). */
  arrow?: boolean;
}
