import { CorruptDataFileError, UnsupportedFeatureError } from './errors';
import type { Mdf3Conversion } from './mdf3/conversion';
import {
  buildDataFile,
  type ChannelData,
  type ChannelInfo,
  type ChannelSource,
  type DataFile,
  type DataFileFormat,
  detectTimeBase,
  firstUnusableTime,
  type EventData,
  type FileProperties,
  type SampleArray,
  type TimeBase,
  timeBaseEnd,
  uniqueName,
} from './model';

/** What assembling an MDF file (3 or 4) needs of one of its channel groups. */
interface MdfGroup {
  cycleCount: number;
  unsupported?: string;
  channels: readonly { name: string }[];
}

/** How a reader gives a group's time and a channel's source. */
export interface MdfGroupReading<G extends MdfGroup, C = G['channels'][number]> {
  /** The group's time base and its end (called only for a readable group with records). */
  timeOf: (group: G) => { time: TimeBase; end: number };
  /** The channel's source under `name`, its name made unique in the file. */
  sourceOf: (group: G, channel: C, name: string) => ChannelSource;
}

/**
 * The catalogue of an MDF file from its channel groups: every channel under a unique name, the file spanning from the
 * earliest first sample to the latest end of its readable groups (0 for a file without samples), and no laps (MDF has
 * none). A file whose every channel is refused is refused with the first one's reason.
 */
export function assembleMdfFile<G extends MdfGroup>(format: DataFileFormat, properties: FileProperties, groups: readonly G[], reading: MdfGroupReading<G>): DataFile {
  const taken = new Set<string>();
  const sources: ChannelSource[] = [];
  let start = Infinity;
  let end = -Infinity;
  for (const group of groups) {
    if (!group.unsupported && group.cycleCount > 0) {
      const t = reading.timeOf(group);
      start = Math.min(start, t.time.kind === 'implicit' ? t.time.start : t.time.timestamps[0]);
      end = Math.max(end, t.end);
    }
    for (const channel of group.channels) sources.push(reading.sourceOf(group, channel, uniqueName(channel.name, taken)));
  }
  const unsupported = sources.map((s) => s.info.unsupported);
  if (sources.length > 0 && unsupported.every(Boolean)) throw new UnsupportedFeatureError(format, unsupported[0] ?? 'unknown');
  if (!Number.isFinite(start)) start = end = 0;
  return buildDataFile({ format, properties, startTime: start, duration: Math.max(0, end - start), laps: [] }, sources);
}

/** A group's time base, worked out once and kept on the group, with the end of its window. */
export type MdfGroupTime = { time: TimeBase; frequency: number; regular: boolean; end: number };

/**
 * A group's time, worked out on first use and kept: from the values `decodeMaster` writes (its master channel's, in
 * seconds), or, when it has no readable master, from the record index, one record per second from 0.
 */
export function mdfGroupTime(format: string, group: { cycleCount: number; time?: MdfGroupTime }, decodeMaster: ((timestamps: Float64Array) => void) | null): MdfGroupTime {
  if (group.time) return group.time;
  const n = group.cycleCount;
  if (!decodeMaster) return (group.time = { time: { kind: 'implicit', start: 0, frequency: 1 }, frequency: 1, regular: true, end: n });
  const timestamps = new Float64Array(n);
  decodeMaster(timestamps);
  const unusable = firstUnusableTime(timestamps);
  if (unusable) throw new CorruptDataFileError(format, `record ${unusable.index + 1} of a channel group ${unusable.why}`, 0);
  const detected = detectTimeBase(timestamps, 1e-3);
  // One period past the last record, so the whole file's window holds the last record.
  return (group.time = { ...detected, end: timeBaseEnd(detected, timestamps) });
}

/** How a reader gives one channel's catalogue entry and its reads. */
export interface MdfChannelReading {
  /** Its values per sample, and an array's shape or an event channel's kind (in the catalogue after `sampleCount`). */
  layout: Pick<ChannelInfo, 'dimension' | 'shape' | 'kind'>;
  dataType: string;
  /** The group's time (called only for a readable group with records). */
  timeOf: () => MdfGroupTime;
  read: (info: ChannelInfo) => ChannelData;
  readEvents?: (info: ChannelInfo) => EventData;
}

/**
 * A channel's source: its catalogue entry (a text conversion's labels in it; the group's refusal, else the channel's,
 * as its `unsupported`) and its reads (refused by that reason).
 */
export function mdfChannelSource(
  format: DataFileFormat,
  name: string,
  group: { cycleCount: number; unsupported?: string },
  channel: { unit: string; conversion: Mdf3Conversion; unsupported?: string },
  reading: MdfChannelReading,
): ChannelSource {
  const unsupported = group.unsupported ?? channel.unsupported;
  const time = group.unsupported || group.cycleCount === 0 ? null : reading.timeOf();
  const info: ChannelInfo = {
    name,
    unit: channel.unit,
    frequency: time?.frequency ?? 0,
    regular: time?.regular ?? false,
    sampleCount: group.cycleCount,
    ...reading.layout,
    dataType: reading.dataType,
    ...(channel.conversion.kind === 'text'
      ? { labels: channel.conversion.labels, ...(channel.conversion.defaultLabel ? { defaultLabel: channel.conversion.defaultLabel } : {}) }
      : {}),
    ...(unsupported ? { unsupported } : {}),
  };
  const readEvents = reading.readEvents;
  return {
    info,
    read: () => {
      if (unsupported) throw new UnsupportedFeatureError(format, unsupported);
      return reading.read(info);
    },
    ...(readEvents ? { readEvents: () => readEvents(info) } : {}),
  };
}

/** The time base a read hands out: none for a group without records, else a copy of the group's (which stays its own). */
export function mdfReadTime(group: { cycleCount: number }, timeOf: () => MdfGroupTime): TimeBase {
  if (group.cycleCount === 0) return { kind: 'implicit', start: 0, frequency: 0 };
  const time = timeOf().time;
  return time.kind === 'explicit' ? { kind: 'explicit', timestamps: time.timestamps.slice() } : time;
}

/**
 * A numeric channel's read from its converted values: values that float32 represents exactly (unconverted or coded
 * by a text conversion, of a float of 32 bits or fewer or an integer of 24 or fewer) are handed out as float32, half
 * the bytes to ship.
 */
export function mdfChannelData(
  info: ChannelInfo,
  time: TimeBase,
  raw: Float64Array,
  stored: { conversion: Mdf3Conversion; isFloat: boolean; bitCount: number },
  gapsOf?: (samples: SampleArray) => Uint8Array | undefined,
): ChannelData {
  const numeric = stored.conversion.kind === 'identity' || stored.conversion.kind === 'text';
  const exactInFloat32 = numeric && (stored.isFloat ? stored.bitCount <= 32 : stored.bitCount <= 24);
  const samples: SampleArray = exactInFloat32 ? Float32Array.from(raw) : raw;
  const gaps = gapsOf?.(samples);
  return { name: info.name, unit: info.unit, frequency: info.frequency, dimension: info.dimension, samples, time, ...(gaps ? { gaps } : {}) };
}
