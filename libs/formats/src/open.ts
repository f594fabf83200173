import { toNanosecond } from '@pitwall/channels';
import { sniffCsv, readCsvFile } from './csv/csv-reader';
import { DataFileLimitError, type DecompressionLimits, DEFAULT_MAX_CHANNELS_PER_FILE, DEFAULT_MAX_LAPS_PER_FILE, limitOption, NotADataFileError, UnsupportedFeatureError } from './errors';
import { isLdFile, readLdFile } from './ld/ld-reader';
import { isPreMdf4File, readMdf3File } from './mdf3/mdf3-reader';
import { isMdfFile, readMdf4File } from './mdf4/mdf4-reader';
import { buildDataFile, type ChannelData, type ChannelInfo, type ChannelSource, type DataFile, lapsFromBoundaries } from './model';

export interface OpenOptions {
  /** MoTeC `.ldx` companion of a `.ld` file; its beacon markers give the laps. */
  ldx?: Uint8Array | string;
  /** More channels in a file (or in a per-lap dataset's files together) is a DataFileLimitError; default DEFAULT_MAX_CHANNELS_PER_FILE. */
  maxChannels?: number;
  /** More laps in a file (or files in a per-lap dataset) is a DataFileLimitError; default DEFAULT_MAX_LAPS_PER_FILE. */
  maxLaps?: number;
  /** How far compressed data blocks inside a file (MDF4 `##DZ`) may decompress; default DEFAULT_DECOMPRESSION_LIMITS. */
  decompression?: DecompressionLimits;
}

/**
 * Opens telemetry bytes, recognising the format from content (never a file name). An array is a per-lap
 * dataset: one lap per file, in order, read as one file. Only the catalogue is read here.
 */
export function openDataFile(input: Uint8Array | readonly Uint8Array[], options: OpenOptions = {}): DataFile {
  if (input instanceof Uint8Array) return openOne(input, options);
  if (input.length === 0) throw new NotADataFileError('empty dataset: no files');
  if (input.length === 1) return openOne(input[0], options);
  const maxChannels = limitOption('maxChannels', options.maxChannels ?? DEFAULT_MAX_CHANNELS_PER_FILE);
  // One lap per file: more files than laps may be is refused before any is opened.
  const maxLaps = limitOption('maxLaps', options.maxLaps ?? DEFAULT_MAX_LAPS_PER_FILE);
  if (input.length > maxLaps) throw new DataFileLimitError('lap-set', 'laps', maxLaps, input.length);
  return combineLaps(
    input.map((bytes) => openOne(bytes, { maxChannels, maxLaps, ...(options.decompression ? { decompression: options.decompression } : {}) })),
    input.reduce((n, bytes) => n + bytes.length, 0),
    maxChannels,
    maxLaps,
  );
}

function openOne(bytes: Uint8Array, options: OpenOptions): DataFile {
  const maxChannels = limitOption('maxChannels', options.maxChannels ?? DEFAULT_MAX_CHANNELS_PER_FILE);
  // No catch-all here: every defect is checked explicitly, and the fuzz test must see any that slips through.
  if (isLdFile(bytes)) return readLdFile(bytes, { ...options, maxChannels });
  if (isMdfFile(bytes)) return isPreMdf4File(bytes) ? readMdf3File(bytes, { maxChannels }) : readMdf4File(bytes, { maxChannels, ...(options.decompression ? { decompression: options.decompression } : {}) });
  // A header of more channels than maxChannels is refused by sniffCsv, from a count of its fields.
  const csv = sniffCsv(bytes, maxChannels);
  if (csv) return readCsvFile(bytes, csv, options.maxLaps);
  throw new NotADataFileError();
}

/**
 * How long each per-lap file lasts on the dataset's axis: its own duration, or, for a file too short to have one (no
 * sample, or one sample of a file without a rate), one sample period of the group's other files, so that every file
 * stays its own lap and no two files share a time.
 */
function lapLengths(parts: readonly DataFile[]): number[] {
  const samples = (part: DataFile) => part.channels.reduce((n, c) => Math.max(n, c.sampleCount), 0);
  const timed = parts.filter((part) => part.duration > 0);
  const count = timed.reduce((n, part) => n + samples(part), 0);
  const period = count > 0 ? timed.reduce((t, part) => t + part.duration, 0) / count : 1;
  return parts.map((part) => (part.duration > 0 ? part.duration : toNanosecond(period * Math.max(1, samples(part)))));
}

/**
 * Per-lap files laid end to end: lap i starts where lap i-1 ended. A channel that is regular in every part
 * stays implicit, each lap padded with gaps to its length; otherwise timestamps are shifted and concatenated.
 */
function combineLaps(parts: DataFile[], inputBytes: number, maxChannels: number, maxLaps: number): DataFile {
  const offsets: number[] = [];
  const durations = lapLengths(parts);
  let at = parts[0].startTime;
  for (const duration of durations) {
    offsets.push(at);
    at = toNanosecond(at + duration);
  }
  const end = at;
  // Each name's channels, in the parts that have it, once: the merge below is linear in the channels of all parts (as
  // the input is), never in names times parts (3,000 tiny files of 4 names each held 303 MB and took 6.8 s so).
  const held = new Map<string, Held[]>();
  parts.forEach((part, k) => {
    for (const info of part.channels) {
      let list = held.get(info.name);
      if (!list) {
        held.set(info.name, (list = []));
        if (held.size > maxChannels) throw new DataFileLimitError(part.format, 'channels', maxChannels, held.size);
      }
      list.push({ part: k, info });
    }
  });
  // The samples of every lap padded to a common grid, by rate (the channels of a file mostly share one or a few).
  const paddedTotals = new Map<number, number>();
  const paddedTotal = (frequency: number): number => {
    let total = paddedTotals.get(frequency);
    if (total === undefined) paddedTotals.set(frequency, (total = paddedLengths(durations, frequency).reduce((a, b) => a + b, 0)));
    return total;
  };

  const sources: ChannelSource[] = [...held.values()].map((holders) => {
    const first = (holders[0] as Held).info;
    // A part without the channel becomes a lap of gaps; it does not force explicit timestamps.
    const implicit = holders.every(({ info: i }) => i.regular && i.frequency === first.frequency && !i.unsupported);
    // Padding laps to a common grid must not allocate beyond what the input could hold (damaged rates or durations).
    const padOk = implicit && paddedTotal(first.frequency) <= 2 * inputBytes;
    const sampleCount = padOk ? paddedTotal(first.frequency) : holders.reduce((n, { info: i }) => n + i.sampleCount, 0);
    // Events and arrays are not joined across laps (yet): the merged catalogue says so.
    const unsupported = holders.find(({ info: i }) => i.unsupported)?.info.unsupported ?? (first.kind ? `${first.kind} channels of per-lap datasets` : first.dimension > 1 ? 'array channels of per-lap datasets' : undefined);
    // At one rate in every part it keeps that rate; at several it is irregular (explicit times), and its rate is the mean
    // one, as an irregular file's is, not the first part's.
    const frequency = holders.every(({ info: i }) => i.frequency === first.frequency) ? first.frequency : meanRate(holders);
    const info: ChannelInfo = { ...first, frequency, regular: padOk, sampleCount, ...(unsupported ? { unsupported } : {}) };
    return {
      info,
      read: () => {
        // The part's reader would refuse too, but only after this join had sized its arrays from the catalogue.
        if (unsupported) throw new UnsupportedFeatureError(parts[0].format, unsupported);
        return padOk ? joinImplicit(parts, holders, offsets, durations, info) : joinExplicit(parts, holders, offsets, info);
      },
    };
  });

  return buildDataFile(
    { format: 'lap-set', properties: parts[0].properties, startTime: parts[0].startTime, duration: end - parts[0].startTime, laps: lapsFromBoundaries(parts[0].startTime, end, offsets.slice(1), 'lap-set', maxLaps) },
    sources,
  );
}

/** A channel in one part of a per-lap dataset: the part's index and its catalogue entry. */
interface Held {
  part: number;
  info: ChannelInfo;
}

/** Each lap's samples at a rate: its duration on that grid. */
function paddedLengths(durations: readonly number[], frequency: number): number[] {
  return durations.map((duration) => Math.round(duration * frequency));
}

/** Samples per second over the parts that have the channel: their samples over the time they span (n / f each). */
function meanRate(holders: readonly Held[]): number {
  let samples = 0;
  let seconds = 0;
  for (const { info } of holders) {
    if (!(info.frequency > 0) || info.sampleCount === 0) continue;
    samples += info.sampleCount;
    seconds += info.sampleCount / info.frequency;
  }
  return seconds > 0 ? samples / seconds : 0;
}

function joinImplicit(parts: DataFile[], holders: readonly Held[], offsets: number[], durations: readonly number[], info: ChannelInfo): ChannelData {
  const { name } = info;
  const total = info.sampleCount;
  const samples = new Float64Array(total).fill(NaN);
  const gaps = new Uint8Array(total).fill(1);
  // Where each lap starts in the joined samples (a part without the channel stays a lap of gaps).
  const lengths = paddedLengths(durations, info.frequency);
  const bases = new Float64Array(lengths.length);
  for (let k = 1; k < lengths.length; k++) bases[k] = (bases[k - 1] as number) + (lengths[k - 1] as number);
  for (const { part: k } of holders) {
    const part = parts[k] as DataFile;
    const base = bases[k] as number;
    const data = part.readChannel(name);
    const t0 = data.time.kind === 'implicit' ? data.time.start : part.startTime;
    const shift = Math.round((t0 - part.startTime) * info.frequency);
    for (let i = 0; i < data.samples.length; i++) {
      const j = shift + i;
      if (j < 0 || j >= (lengths[k] as number)) continue;
      samples[base + j] = data.samples[i];
      gaps[base + j] = data.gaps?.[i] ?? 0;
    }
  }
  return { name, unit: info.unit, frequency: info.frequency, dimension: 1, samples, time: { kind: 'implicit', start: offsets[0], frequency: info.frequency }, ...(gaps.includes(1) ? { gaps } : {}) };
}

function joinExplicit(parts: DataFile[], holders: readonly Held[], offsets: number[], info: ChannelInfo): ChannelData {
  const { name } = info;
  const pieces = holders.map(({ part: k }) => (parts[k] as DataFile).readChannel(name));
  const total = pieces.reduce((n, p) => n + p.samples.length, 0);
  const samples = new Float64Array(total);
  const timestamps = new Float64Array(total);
  const gaps = new Uint8Array(total);
  let at = 0;
  holders.forEach(({ part: k }, h) => {
    const part = parts[k] as DataFile;
    const data = pieces[h] as ChannelData;
    for (let i = 0; i < data.samples.length; i++, at++) {
      const t = data.time.kind === 'implicit' ? data.time.start + i / data.time.frequency : data.time.timestamps[i];
      timestamps[at] = toNanosecond(offsets[k] + (t - part.startTime));
      samples[at] = data.samples[i];
      gaps[at] = data.gaps?.[i] ?? 0;
    }
  });
  return { name, unit: info.unit, frequency: info.frequency, dimension: 1, samples, time: { kind: 'explicit', timestamps }, ...(gaps.includes(1) ? { gaps } : {}) };
}
