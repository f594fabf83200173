import { UnsupportedFeatureError } from './errors';
import { buildDataFile, type ChannelSource, type DataFile, type DataFileFormat, type FileProperties, type TimeBase, uniqueName } from './model';

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
