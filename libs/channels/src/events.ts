import { type ChannelRecord, type ChannelSeries, toChannelRecord } from './series';

/** What the events of a text or byte channel carry: UTF-8 text, or bytes as stored. */
export type EventKind = 'text' | 'bytes';

/**
 * One text or byte channel of a read: (time, value) events, never downsampled. Event i is at `times[i]` and holds
 * `bytes[offsets[i], offsets[i + 1])` (UTF-8 for text).
 */
export interface EventSeries {
  kind: EventKind;
  name: string;
  unit: string;
  /** Hz of the channel's records. */
  frequency: number;
  /** Seconds on the file's time axis of the first event (of the window when there is none). */
  startTime: number;
  /** Time of every event, seconds on the file's time axis. */
  times: Float64Array;
  /** n + 1 offsets into `bytes`, the first 0. */
  offsets: Uint32Array;
  bytes: Uint8Array;
  /** 1 where there is no event at that index (its value is empty). */
  gaps?: Uint8Array;
  /** Present (false) on a read that asked for maxPoints: every event is here, maxPoints does not apply to events. */
  maxPointsApplied?: false;
}

/** One channel of a read: numbers (ChannelSeries) or events (EventSeries). */
export type ReadSeries = ChannelSeries | EventSeries;

/** The JSON record of a text or byte channel: values as text, bytes as base64; null for gaps. */
export interface EventRecord {
  name: string;
  unit: string;
  kind: EventKind;
  frequency: number;
  times: number[];
  values: (string | null)[];
  maxPointsApplied?: false;
}

export function isEventSeries(series: ReadSeries): series is EventSeries {
  return 'kind' in series && (series.kind === 'text' || series.kind === 'bytes');
}

const utf8 = new TextDecoder('utf-8');

/** Event i's value: its text, or its bytes (a view, no copy). */
export function eventValue(series: EventSeries, i: number): string | Uint8Array {
  const value = series.bytes.subarray(series.offsets[i], series.offsets[i + 1]);
  return series.kind === 'text' ? utf8.decode(value) : value;
}

export function toEventRecord(series: EventSeries): EventRecord {
  const n = series.times.length;
  const values = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    if (series.gaps?.[i] === 1) values[i] = null;
    else {
      const value = eventValue(series, i);
      values[i] = typeof value === 'string' ? value : base64(value);
    }
  }
  return {
    name: series.name,
    unit: series.unit,
    kind: series.kind,
    frequency: series.frequency,
    times: Array.from(series.times),
    values,
    ...(series.maxPointsApplied === false ? { maxPointsApplied: false as const } : {}),
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** RFC 4648 base64 with padding (no Node or DOM API: the client runs this in browsers too). */
function base64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63] + ALPHABET[v & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    out += `${ALPHABET[v >> 18]}${ALPHABET[(v >> 12) & 63]}==`;
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += `${ALPHABET[v >> 18]}${ALPHABET[(v >> 12) & 63]}${ALPHABET[(v >> 6) & 63]}=`;
  }
  return out;
}

/** The JSON record of any channel of a read. */
export function toReadRecord(series: ReadSeries): ChannelRecord | EventRecord {
  return isEventSeries(series) ? toEventRecord(series) : toChannelRecord(series);
}
