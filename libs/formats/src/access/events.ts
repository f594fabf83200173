import type { EventData, TimeBase } from '../model';

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
