import {
  ChannelNotFoundError,
  CorruptDataFileError,
  DataFileError,
  DataFileLimitError,
  eventsInScope,
  ldxBeaconTimes,
  metadataChannels,
  NotADataFileError,
  openDataFile,
  storedFromChannelData,
  UnsupportedFeatureError,
  type DataFile,
  type DataFileLimit,
  type DecompressionLimits,
  type ScopedEvents,
  type ScopeWindow,
  type StoredChannel,
} from '@pitwall/formats';

/**
 * Files read whole (every format but a single `.ld`, and per-lap groups) are parsed on the pool, not on the event loop
 * of the process that serves HTTP: their bytes live in SharedArrayBuffers the pool's threads read without a copy.
 */
export interface WholeFiles {
  /** The dataset's content key: what a thread keeps its opened file under. */
  key: string;
  files: Uint8Array[];
  ldx?: Uint8Array;
  maxChannels: number;
  maxLaps: number;
  /** DATAFILE_MAX_CATALOGUE_LABELS: text labels the catalogue's channels may carry together (default DEFAULT_MAX_CATALOGUE_LABELS). */
  maxLabels?: number;
  /** DATAFILE_MAX_CATALOGUE_CHARS: characters of the catalogue's names, units and labels together (default DEFAULT_MAX_CATALOGUE_CHARS). */
  maxChars?: number;
  decompression?: DecompressionLimits;
}

/**
 * Text labels (of value→text conversions) a catalogue's channels may carry together: each channel's record repeats its
 * table, so one table of 65,535 texts shared by 20,000 channels would be a catalogue of gigabytes.
 */
export const DEFAULT_MAX_CATALOGUE_LABELS = 1_000_000;

/**
 * Characters of the catalogue's channel names, units and label texts together (16 Mi). A file's blocks may share one
 * text (every channel's unit, name or labels linking the same MDF text block): a 3 MB file can give each of 20,000
 * channels a unit of 20,000 characters, 400 MB of metadata, copied to the service's main thread with the catalogue.
 * Real files use a few characters per channel: 20,000 channels of 100 characters each are 2 Mi.
 */
export const DEFAULT_MAX_CATALOGUE_CHARS = 16 * 1024 * 1024;

/**
 * The catalogue of an opened file: a DataFile without its channel reader, and the metadata record's `channels` as JSON
 * (encoded here: for a file of many channels that is the costly part of the metadata answer).
 */
export type Catalogue = Omit<DataFile, 'readChannel' | 'readEvents'> & { channelsJson: Uint8Array };

/** A reader's refusal as it crosses threads (an Error's class does not), with the file of the group it came from. */
export interface Refusal {
  refused: { name: string; message: string; code?: string; format?: string; reason?: string; offset?: number; feature?: string; limit?: DataFileLimit; max?: number; found?: number };
  /** Index of the first file of a group that does not open by itself. */
  culprit?: number;
}

/** Opened files of this thread, most recently used last: a read of one of their channels does not parse them again. */
const opened = new Map<string, DataFile>();
const KEPT = 4;

function openWhole(task: WholeFiles): DataFile {
  const known = opened.get(task.key);
  if (known) {
    opened.delete(task.key);
    opened.set(task.key, known);
    return known;
  }
  const file = openDataFile(task.files.length === 1 ? (task.files[0] as Uint8Array) : task.files, { ...limits(task), ...(task.ldx ? { ldx: task.ldx } : {}) });
  opened.set(task.key, file);
  while (opened.size > KEPT) opened.delete(opened.keys().next().value as string);
  return file;
}

const limits = (task: WholeFiles) => ({ maxChannels: task.maxChannels, maxLaps: task.maxLaps, ...(task.decompression ? { decompression: task.decompression } : {}) });

/** Pool task `catalogue`: the catalogue, or the refusal and, for a group, which file does not open alone. */
export function catalogueOf(task: WholeFiles): Catalogue | Refusal {
  try {
    const { readChannel: _reader, readEvents: _events, ...catalogue } = openWhole(task);
    const maxLabels = task.maxLabels ?? DEFAULT_MAX_CATALOGUE_LABELS;
    let labels = 0;
    for (const channel of catalogue.channels) labels += channel.labels?.length ?? 0;
    if (labels > maxLabels) throw new DataFileLimitError(catalogue.format, 'text labels', maxLabels, labels);
    // Counted here, before the catalogue is encoded or leaves the thread (a shared text counts once per use).
    const maxChars = task.maxChars ?? DEFAULT_MAX_CATALOGUE_CHARS;
    let chars = 0;
    for (const channel of catalogue.channels) {
      chars += channel.name.length + channel.unit.length + (channel.defaultLabel?.length ?? 0);
      for (const label of channel.labels ?? []) chars += label.text.length;
      if (chars > maxChars) throw new DataFileLimitError(catalogue.format, 'characters of names, units and labels', maxChars, chars);
    }
    return { ...catalogue, channelsJson: new TextEncoder().encode(JSON.stringify(metadataChannels(catalogue.channels))) };
  } catch (err) {
    const refusal = asRefusal(err);
    if (task.files.length > 1) {
      const culprit = task.files.findIndex((bytes) => {
        try {
          openDataFile(bytes, limits(task));
          return false;
        } catch {
          return true;
        }
      });
      if (culprit >= 0) refusal.culprit = culprit;
    }
    return refusal;
  }
}

/** Pool task `stored`: one channel of the file decoded whole, its arrays its own (transferable), or the refusal. */
export function storedOf(task: WholeFiles & { channel: string }): StoredChannel | Refusal {
  try {
    const stored = storedFromChannelData(openWhole(task).readChannel(task.channel));
    // Copies: a view on the shared file bytes cannot be transferred, and must not outlive a dropped dataset.
    return {
      ...stored,
      samples: stored.samples.slice(),
      time: stored.time.kind === 'implicit' ? stored.time : { kind: 'explicit', timestamps: stored.time.timestamps.slice() },
      ...(stored.gaps ? { gaps: stored.gaps.slice() } : {}),
    };
  } catch (err) {
    return asRefusal(err);
  }
}

/** Pool task `events`: the events of a text or byte channel, decoded whole, their arrays their own, or the refusal. */
export function eventsOf(task: WholeFiles & { channel: string; window: ScopeWindow }): ScopedEvents | Refusal {
  try {
    // Sliced to the read's window, every array its own (no view on the shared file bytes or a time base the group shares).
    return eventsInScope(openWhole(task).readEvents(task.channel), task.window);
  } catch (err) {
    return asRefusal(err);
  }
}

/**
 * Pool task `ldxBeacons`: the beacon times of a `.ldx` beside a single `.ld` (the `.ld` itself is read in ranges on the
 * event loop; its companion's text is parsed here), `times` absent when it has none, or the refusal.
 */
export function ldxBeaconsOf(task: { ldx: Uint8Array }): { times?: number[] } | Refusal {
  try {
    const times = ldxBeaconTimes(task.ldx);
    return times ? { times } : {};
  } catch (err) {
    return asRefusal(err);
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'refused' in value;
}

function asRefusal(err: unknown): Refusal {
  if (!(err instanceof Error)) throw err;
  // A reader's own refusals and a RangeError (a read past a short file) keep what the API answer needs.
  if (!(err instanceof DataFileError) && !(err instanceof RangeError)) throw err;
  const e = err as Error & Partial<Refusal['refused']>;
  return { refused: { name: e.name, message: e.message, code: e.code, format: e.format, reason: e.reason, offset: e.offset, feature: e.feature, limit: e.limit, max: e.max, found: e.found } };
}

/** The reader's error again, of its class, on this side of the pool. */
export function reviveRefusal({ refused: r }: Refusal): Error {
  switch (r.code) {
    case 'CORRUPT':
      return new CorruptDataFileError(r.format ?? '', r.reason ?? r.message, r.offset ?? 0);
    case 'UNSUPPORTED':
      return new UnsupportedFeatureError(r.format ?? '', r.feature ?? r.message);
    case 'NOT_A_DATA_FILE':
      return new NotADataFileError(r.message);
    case 'CHANNEL_NOT_FOUND':
      return new ChannelNotFoundError(r.message.replace(/^channel not found: /, ''));
    case 'OVER_LIMIT':
      return new DataFileLimitError(r.format ?? '', r.limit ?? 'channels', r.max ?? 0, r.found ?? 0);
    default:
      return r.name === 'RangeError' ? new RangeError(r.message) : new CorruptDataFileError(r.format ?? 'data', r.message, 0);
  }
}
