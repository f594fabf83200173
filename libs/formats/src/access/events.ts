import type { EventData, TimeBase } from '../model';
import { scopeSampleRange, type ScopeWindow } from './scope';

/** Events [from, to) of a text or byte channel, copied so that every array owns its buffer (offsets from 0 again). */
export function sliceEvents(events: EventData, from: number, to: number): EventData {
  const n = events.offsets.length - 1;
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= n)) throw new RangeError(`event range [${from}, ${to}) is outside 0..${n}`);
  const first = events.offsets[from] as number;
  const offsets = events.offsets.slice(from, to + 1);
  for (let i = 0; i < offsets.length; i++) offsets[i] -= first;
  const time: TimeBase =
    events.time.kind === 'implicit'
      ? { kind: 'implicit', start: events.time.start + from / events.time.frequency, frequency: events.time.frequency }
      : { kind: 'explicit', timestamps: events.time.timestamps.slice(from, to) };
  return {
    ...events,
    time,
    offsets,
    bytes: events.bytes.slice(first, events.offsets[to]),
    ...(events.gaps ? { gaps: events.gaps.slice(from, to) } : {}),
  };
}

/** Bytes an events channel holds (offsets, values, explicit timestamps, gaps). */
export function eventBytes(events: EventData): number {
  return events.offsets.byteLength + events.bytes.byteLength + (events.time.kind === 'explicit' ? events.time.timestamps.byteLength : 0) + (events.gaps?.byteLength ?? 0);
}

/** A read's events of a channel: those in its window, their times explicit; and the bytes of the channel's values decoded. */
export interface ScopedEvents {
  events: EventData & { time: { kind: 'explicit'; timestamps: Float64Array } };
  /** The whole channel's value bytes (what READ_SAMPLE_BUDGET counts of a text or byte channel). */
  decodedBytes: number;
}

/**
 * The events of `all` (new arrays, as a reader's readEvents makes them) in `window`, an implicit time base's times
 * computed (start + i / rate, as every read gives them): the work that grows with the events, done where the channel
 * was decoded (the pool), not by the caller. A part of them is copied, all of them kept as they are but an explicit
 * time base, which a group's channels may share: every array of the answer its own.
 */
export function eventsInScope(all: EventData, window: ScopeWindow): ScopedEvents {
  const n = all.offsets.length - 1;
  const { from, to } = scopeSampleRange(window, all.time, n);
  const sliced = from === 0 && to === n ? all : sliceEvents(all, from, to);
  const { time } = sliced;
  let timestamps: Float64Array;
  if (time.kind === 'explicit') timestamps = sliced === all ? time.timestamps.slice() : time.timestamps;
  else {
    timestamps = new Float64Array(to - from);
    for (let i = 0; i < timestamps.length; i++) timestamps[i] = time.start + i / time.frequency;
  }
  return { events: { ...sliced, time: { kind: 'explicit', timestamps } }, decodedBytes: all.bytes.byteLength };
}
