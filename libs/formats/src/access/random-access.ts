import { ChannelNotFoundError, UnsupportedFeatureError } from '../errors';
import type { DataFile } from '../model';
import { eventsInScope, type ScopedEvents } from './events';
import type { ScopeWindow } from './scope';
import { sliceStored, type StoredChannel, storedFromChannelData } from './stored-channel';

/** Sample indices [from, to) of a channel. */
export interface SampleRange {
  from: number;
  to: number;
}

/**
 * A data file opened over a ByteSource: the catalogue of a DataFile, and channel reads that return stored values of
 * a sample range. MoTeC `.ld` reads only the bytes of that range; MDF and CSV are read whole at open (their readers
 * work on a buffer) and slice the decoded channel.
 */
export interface RandomAccessDataFile extends Omit<DataFile, 'readChannel' | 'readEvents'> {
  /** Stored values of samples [from, to) (the whole channel without a range); ChannelNotFoundError, UnsupportedFeatureError. */
  readStored(name: string, range?: SampleRange): Promise<StoredChannel>;
  /** The events of a text or byte channel in a read's window (all without one); ChannelNotFoundError, UnsupportedFeatureError. */
  readEvents(name: string, window?: ScopeWindow): Promise<ScopedEvents>;
}

/** A whole-buffer DataFile as a RandomAccessDataFile (decodes the channel, then slices it: stored values without copying, events as eventsInScope gives them). */
export function fromDataFile(file: DataFile): RandomAccessDataFile {
  const { readChannel, readEvents, ...catalogue } = file;
  return {
    ...catalogue,
    async readStored(name, range) {
      const stored = storedFromChannelData(readChannel(name));
      return range ? sliceStored(stored, range.from, range.to) : stored;
    },
    async readEvents(name, window = { whole: true }) {
      return eventsInScope(readEvents(name), window);
    },
  };
}

/** The catalogue entry of a channel, or the reader's errors for a name that is missing or cannot be decoded. */
export function channelFor(file: Pick<DataFile, 'channels' | 'format'>, name: string) {
  const info = file.channels.find((c) => c.name === name);
  if (!info) throw new ChannelNotFoundError(name);
  if (info.unsupported) throw new UnsupportedFeatureError(file.format, info.unsupported);
  return info;
}
