import type { FairPool } from './fair-pool';
import { answerTag, bytesAnswer, heldAnswer, keptAnswer, type BulkAnswer, type StreamWatch } from '@pitwall/bus';
import { buildMetadataRecord, StoredChannelCache, type DataFileMetadataRecord } from '@pitwall/formats';
import { pickDistanceSource } from '@pitwall/laps';
import { AppError } from '@pitwall/service-kit';
import type { Datasets, DatasetRef } from './datasets';
import { DEFAULT_MAX_MATH_PARAMS } from '@pitwall/expressions';
import { heldValues, NO_CONSTANTS, parameterUses, paramsNeeded, resolveConstants, valueOf, type ConstantsChain, type DatasetConstants, type DatasetParams, type ParameterUse } from './dataset-constants';
import type { MathDefinition, MathDefinitions } from './math-definitions';
import { mediaTypeOf, readChannels, type ChannelRead } from './read-channels';
import { lapStatsChannels, readHistogram, readLapStats, readScatter, scatterChannels, type AnalysisLimits, type HistogramRead, type LapStatsRead, type ScatterRead } from './read-analysis';
import { mathCatalogue, mathDependenciesOf, mathReads, paramsReadBy, resolveMathChannels, type MathCatalogueEntry, type MathReads } from './read-math-channels';
import { lapDistanceSource, readLapDelta, readLapDistance } from './read-lap-traces';
import { readTrackMap, type TrackMapRead } from './read-track-map';
import { ReadResultCache } from './read-result-cache';
import type { TrackSectors } from './track-sectors';
import { toReadError } from './read-errors';
import type { ArrowLimits } from '../workers/arrow-limits';

/**
 * Math catalogue entries as the metadata record lists them: a logged entry's fields, then the group, the expression,
 * the DecimalPlaces and, for one reading param(), the values a read of it takes now and where they are held.
 */
function metadataMath(entries: (MathCatalogueEntry & { parameters?: ParameterUse[] })[]) {
  return entries.map((c) => ({ name: c.name, unit: c.unit, frequency: c.frequency, sampleCount: c.sampleCount, dimension: 1, dataType: c.dataType, group: c.group, expression: c.expression, ...(c.decimalPlaces !== undefined ? { decimalPlaces: c.decimalPlaces } : {}), ...(c.parameters?.length ? { parameters: c.parameters } : {}) }));
}

export interface DataFileReadsOptions {
  /** A read taking longer is answered 504 and its work abandoned (pool task aborted, no further reads). */
  timeoutMs: number;
  /** READ_SAMPLE_BUDGET: a read needing more decoded samples is a 413 before any is read. */
  sampleBudget: number;
  /** ARROW_MAX_BYTES and ARROW_MAX_BATCH_COLUMNS: an Arrow answer past either is a 413 before its first byte (default ARROW_LIMITS). */
  arrowLimits?: ArrowLimits;
  /** HISTOGRAM_MAX_BINS, SCATTER_MAX_GRID, SCATTER_MAX_POINTS, LAPSTATS_MAX_CELLS (defaults: ANALYSIS_LIMITS). */
  analysis?: AnalysisLimits;
  /**
   * The code that makes the answers (a hash of this process's and its pool's bundles): part of every answer's tag, so
   * a gateway never sends an answer a former version made, whose bytes this one might make otherwise.
   */
  codeVersion?: string;
  /**
   * Watches the answers streamed from the pool for clients that take nothing (`StalledStreams`: DATAFILE_STREAM_STALL_MS,
   * DATAFILE_STREAM_MAX_STALL_MS); none unless given.
   */
  streams?: StreamWatch;
  /**
   * MAX_MATH_PARAMS: the most distinct parameters (param("Name")) one math channel may read through the definitions it
   * reads, and one read need; more is a 422 naming it (default DEFAULT_MAX_MATH_PARAMS).
   */
  maxParams?: number;
}

/** The analysis reads' bounds when the options give none (the datafile-service's defaults). */
export const ANALYSIS_LIMITS: AnalysisLimits = { maxBins: 1_000, maxGrid: 256, maxPoints: 10_000, maxLapStatsCells: 1_000_000 };

/** The use cases of the data file access endpoints: the metadata record and channel reads of one dataset. */
export class DataFileReads {
  constructor(
    private readonly datasets: Datasets,
    private readonly cache: StoredChannelCache,
    /** The pool's threads, shared fairly among the users reading (`FairPool`). */
    private readonly pool: Pick<FairPool, 'forUser'>,
    private readonly options: DataFileReadsOptions,
    /** Encoded answers by content (default: off). */
    readonly results: ReadResultCache = new ReadResultCache(0),
    /** The accounts' math channels (default: none; docs/math-channels.md). */
    private readonly mathDefinitions?: MathDefinitions,
    /** The sectors of the track a dataset was logged on, for lap statistics without sectorStartDistances (default: none). */
    private readonly trackSectors?: TrackSectors,
    /** Where a math channel's param("Name") is looked up: the dataset's owner chain (default: none, so none is held). */
    private readonly datasetConstants?: DatasetConstants,
  ) {}

  /**
   * The metadata record: the catalogue, no sample decoded. When the catalogue was parsed on the pool, the record comes
   * as JSON bytes around the `channels` the pool encoded (a file of many channels is not encoded on the event loop).
   */
  metadata(ref: DatasetRef, requestId?: string): Promise<DataFileMetadataRecord | Uint8Array> {
    return this.withinTimeout(async () => {
      const [{ file, channelsJson }, definitions] = await Promise.all([this.datasets.open(ref, requestId), this.mathDefinitions?.of(ref.caller, requestId)]);
      const echo = { entityId: ref.id, entityType: ref.type, attachedFileGroupName: ref.group };
      // The account's math channels this file can evaluate follow the file's own, in the group "Math".
      const math = definitions?.size ? metadataMath(await this.withParamsHeld(ref, mathCatalogue(file, definitions, this.maxParams), requestId)) : [];
      if (!channelsJson) {
        const record = buildMetadataRecord(echo, file);
        return math.length ? { ...record, channels: [...record.channels, ...math] } : record;
      }
      const { channels: _none, ...head } = buildMetadataRecord(echo, { ...file, channels: [] });
      const start = Buffer.from(`${JSON.stringify(head).slice(0, -1)},"channels":`);
      if (!math.length) return Buffer.concat([start, channelsJson, Buffer.from('}')]);
      const more = JSON.stringify(math).slice(1);
      const logged = channelsJson.byteLength > 2 ? Buffer.concat([channelsJson.subarray(0, channelsJson.byteLength - 1), Buffer.from(',')]) : Buffer.from('[');
      return Buffer.concat([start, logged, Buffer.from(more), Buffer.from('}')]);
    });
  }

  /**
   * The encoded samples of a read (binary body, or the JSON array of its channel records), streamed from the pool as
   * they are taken; one already kept by content comes from memory, and one small enough to keep is kept as it passes.
   * The answer is tagged by everything that shapes it (`tagged.variant`: what the entry point adds, its framing and
   * media type); when that is `tagged.held`, the tag the asker holds, the answer is that one and nothing is made.
   */
  channels(ref: DatasetRef, read: ChannelRead, requestId?: string, tagged: { variant: string; held?: string } = { variant: '' }): Promise<BulkAnswer> {
    return this.withinTimeout(async (signal) => {
      // The check (the caller may read it, and which files it is) comes first, every time; then the answer may be
      // one already encoded from the same bytes.
      const dataset = await this.datasets.open(ref, requestId);
      signal.throwIfAborted();
      const named = read.channels.map((name, i): [string, string] => [read.field === 'channel' ? 'channel' : `channels[${i}]`, name]);
      const { reads: math, names: mathNames } = await this.mathOf(ref, dataset, named, requestId);
      signal.throwIfAborted();
      // An answer with math channels depends on their definitions too (every one they read, through each other), and
      // on the value of each parameter they read: a changed one is another key and another tag, never a kept answer.
      const key = ReadResultCache.keyOf(dataset.contentKey, read, math ? mathDependenciesOf(math) : undefined);
      const tag = answerTag(this.options.codeVersion ?? '', key, tagged.variant);
      const contentType = mediaTypeOf(read);
      if (tag === tagged.held) return heldAnswer(tag, contentType);
      const known = this.results.get(key);
      if (known) return { ...bytesAnswer(known, contentType), tag };
      const answer = await readChannels(dataset, read, this.parts(ref), signal, math, mathNames);
      return { ...keptAnswer(answer, this.results.maxBytes / 8, (bytes) => this.results.set(dataset.contentKey, key, bytes)), tag };
    });
  }

  /**
   * A lap's lap-relative time and distance (JSON body), from every sample of its distance source (`distanceChannel`, a
   * logged or math channel, or the one picked by name), on the pool.
   */
  lapDistance(ref: DatasetRef, lapIndex: number, maxPoints: number | undefined, distanceChannel?: string, requestId?: string): Promise<Uint8Array> {
    return this.withinTimeout(async (signal) => {
      const dataset = await this.datasets.open(ref, requestId);
      signal.throwIfAborted();
      const parts = this.parts(ref);
      const source = await lapDistanceSource(ref, dataset, distanceChannel, this.definitionsOf(ref, requestId), parts, this.paramsOf(ref, requestId));
      signal.throwIfAborted();
      return readLapDistance({ ref, dataset, lapIndex, field: 'lapIndex', source }, maxPoints, parts, signal);
    });
  }

  /**
   * The delta of a lap against a reference lap (JSON body). The reference dataset is opened through the entity-service
   * like the lap's, with the same caller, so a reference the caller cannot read is a 404.
   */
  lapDelta(ref: DatasetRef, lapIndex: number, referenceRef: DatasetRef, referenceLapIndex: number, maxPoints: number | undefined, distanceChannel?: string, requestId?: string): Promise<Uint8Array> {
    return this.withinTimeout(async (signal) => {
      const sameDataset = referenceRef.type === ref.type && referenceRef.id === ref.id && referenceRef.group === ref.group;
      const [dataset, referenceDataset] = await Promise.all([this.datasets.open(ref, requestId), sameDataset ? undefined : this.datasets.open(referenceRef, requestId)]);
      signal.throwIfAborted();
      const parts = this.parts(ref);
      // Each lap's source is resolved against its own file: a named one must be in both.
      const definitions = this.definitionsOf(ref, requestId);
      // Each dataset's param() values are its own owner chain's.
      const source = await lapDistanceSource(ref, dataset, distanceChannel, definitions, parts, this.paramsOf(ref, requestId));
      const referenceSource = referenceDataset ? await lapDistanceSource(referenceRef, referenceDataset, distanceChannel, definitions, parts, this.paramsOf(referenceRef, requestId)) : source;
      signal.throwIfAborted();
      return readLapDelta(
        { ref, dataset, lapIndex, field: 'lapIndex', source },
        { ref: referenceRef, dataset: referenceDataset ?? dataset, lapIndex: referenceLapIndex, field: 'referenceLapIndex', source: referenceSource },
        maxPoints,
        parts,
        signal,
      );
    });
  }

  /** Lap times, sectors, best and theoretical best lap, and each channel's report per lap (JSON body), computed on the pool. */
  lapStats(ref: DatasetRef, read: LapStatsRead, requestId?: string): Promise<Uint8Array> {
    return this.analysed(ref, requestId, lapStatsChannels(read), async (dataset, parts, signal, math) => readLapStats(ref, dataset, await this.withTrackSectors(ref, dataset, read, requestId), parts, signal, math));
  }

  /**
   * A lap statistics read that gives no sectorStartDistances takes the start distances of the track's
   * TrackSectorDefinitions (its session's TrackConfiguration), when there are some and the file has a distance or speed
   * channel to time them on; otherwise it stays without sectors.
   */
  private async withTrackSectors(ref: DatasetRef, dataset: Awaited<ReturnType<Datasets['open']>>, read: LapStatsRead, requestId?: string): Promise<LapStatsRead> {
    if (read.sectorStartDistances || !this.trackSectors || !pickDistanceSource(dataset.file.channels)) return read;
    const startDistances = await this.trackSectors.startDistances(ref, requestId);
    return startDistances.length ? { ...read, sectorStartDistances: startDistances } : read;
  }

  /** One channel against another, coloured by a third (JSON body): points, or a density grid when large. */
  scatter(ref: DatasetRef, read: ScatterRead, requestId?: string): Promise<Uint8Array> {
    return this.analysed(ref, requestId, scatterChannels(read), (dataset, parts, signal, math) => readScatter(ref, dataset, read, parts, signal, math));
  }

  /** The histogram of one channel (JSON body). */
  histogram(ref: DatasetRef, read: HistogramRead, requestId?: string): Promise<Uint8Array> {
    return this.analysed(ref, requestId, [['channel', read.channel]], (dataset, parts, signal, math) => readHistogram(ref, dataset, read, parts, signal, math));
  }

  /** A lap's track map (JSON body): its path from GPS or dead reckoning, coloured by a channel, computed on the pool. */
  trackMap(ref: DatasetRef, read: TrackMapRead, requestId?: string): Promise<Uint8Array> {
    return this.analysed(ref, requestId, read.colour !== undefined ? [['colour', read.colour]] : [], (dataset, parts, signal, math) => readTrackMap(ref, dataset, read, parts, signal, math));
  }

  /** An analysis read of the channels `named` ([field, name]): those the file lacks are looked up among the account's math channels. */
  private analysed(
    ref: DatasetRef,
    requestId: string | undefined,
    named: readonly [string, string][],
    read: (dataset: Awaited<ReturnType<Datasets['open']>>, parts: ReturnType<DataFileReads['parts']> & { limits: AnalysisLimits }, signal: AbortSignal, math: MathReads | undefined) => Promise<Uint8Array>,
  ): Promise<Uint8Array> {
    return this.withinTimeout(async (signal) => {
      const dataset = await this.datasets.open(ref, requestId);
      signal.throwIfAborted();
      const { reads: math } = await this.mathOf(ref, dataset, named, requestId);
      signal.throwIfAborted();
      return read(dataset, { ...this.parts(ref), limits: this.options.analysis ?? ANALYSIS_LIMITS }, signal, math);
    });
  }

  /**
   * The math channels among the read's names (`reads`, undefined when it names none): only a name the file's catalogue
   * lacks asks for the account's definitions (a read of logged channels costs what it did). `names`: the definitions'
   * names when they were asked for, for the "did you mean" of a name that is neither logged nor a math channel.
   */
  private async mathOf(ref: DatasetRef, dataset: Awaited<ReturnType<Datasets['open']>>, named: readonly [string, string][], requestId?: string): Promise<{ reads?: MathReads; names?: Iterable<string> }> {
    if (!this.mathDefinitions) return {};
    const logged = new Set(dataset.file.channels.map((c) => c.name));
    if (named.every(([, name]) => logged.has(name))) return {};
    const definitions = await this.mathDefinitions.of(ref.caller, requestId);
    const names = named.map(([, name]) => name);
    const fieldOf = (i: number) => named[i]?.[0] ?? 'channels';
    const lead = `The data file could not be read: ${ref.type} ${ref.id} dataset '${ref.group}': `;
    const infos = resolveMathChannels(dataset.file, names, definitions, fieldOf, lead, this.maxParams);
    const constants = infos.size ? await this.paramsOf(ref, requestId).valuesOf(paramsReadBy(names, infos), fieldOf, lead) : NO_CONSTANTS;
    return { ...(infos.size ? { reads: mathReads(dataset, infos, this.parts(ref), constants) } : {}), names: definitions.keys() };
  }

  /** MAX_MATH_PARAMS. */
  private get maxParams(): number {
    return this.options.maxParams ?? DEFAULT_MAX_MATH_PARAMS;
  }

  /**
   * The param() values of a read of `ref` (docs/math-channels.md): its owner chain asked of the entity-service once,
   * and only when a math channel of the read reads a parameter; more than MAX_MATH_PARAMS of them together, or one no
   * entity of the chain holds, is a 422.
   */
  private paramsOf(ref: DatasetRef, requestId?: string): DatasetParams {
    return {
      max: this.maxParams,
      valuesOf: async (channels, fieldOf, lead) => {
        const names = paramsNeeded(channels, this.maxParams, fieldOf, lead);
        if (!names.length) return NO_CONSTANTS;
        return resolveConstants(channels, await this.chainOf(ref, names, requestId), fieldOf, lead);
      },
      held: (entries) => this.withParamsHeld(ref, entries, requestId),
    };
  }

  /** The owner chain of `ref`, with those of `names` its entities hold (none without an entity-service). */
  private async chainOf(ref: DatasetRef, names: Iterable<string>, requestId?: string): Promise<ConstantsChain> {
    return this.datasetConstants ? this.datasetConstants.chainOf(ref, names, requestId) : { entities: [] };
  }

  /**
   * The catalogue's math channels the dataset can evaluate: one reading param() only when its owner chain (asked once,
   * when some do, for the names they read) holds each parameter it reads, as a read of it would find them, with those
   * values and where each is held (`parameters`, what a read of it now uses).
   */
  private async withParamsHeld<T extends Pick<MathCatalogueEntry, 'params'>>(ref: DatasetRef, entries: T[], requestId?: string): Promise<(T & { parameters?: ParameterUse[] })[]> {
    const names = new Set<string>();
    const seen = new Set<ReadonlySet<string>>();
    for (const e of entries) {
      if (!e.params || seen.has(e.params)) continue;
      seen.add(e.params);
      for (const name of e.params) names.add(name.toLowerCase());
    }
    if (!names.size) return entries;
    const held = heldValues(await this.chainOf(ref, names, requestId));
    return entries.filter((e) => !e.params || [...e.params].every((name) => valueOf(held, name) !== undefined)).map((e) => (e.params ? { ...e, parameters: parameterUses(e.params, (name) => valueOf(held, name)) } : e));
  }

  /** The account's math channel definitions, listed when first asked for (undefined: this service has none). */
  private definitionsOf(ref: DatasetRef, requestId?: string): (() => Promise<ReadonlyMap<string, MathDefinition>>) | undefined {
    const definitions = this.mathDefinitions;
    return definitions ? () => definitions.of(ref.caller, requestId) : undefined;
  }

  /** What a read of `ref` works with: the pool as its caller's reads share it. */
  private parts(ref: DatasetRef) {
    return { cache: this.cache, pool: this.pool.forUser(ref.caller.userId), sampleBudget: this.options.sampleBudget, ...(this.options.streams ? { streams: this.options.streams } : {}), ...(this.options.arrowLimits ? { arrowLimits: this.options.arrowLimits } : {}) };
  }

  private async withinTimeout<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = AppError.timeout(`The read did not finish within ${this.options.timeoutMs} ms (DATAFILE_READ_TIMEOUT_MS); its work was stopped`);
        abort.abort(err);
        reject(err);
      }, this.options.timeoutMs);
    });
    const work = run(abort.signal);
    // The abandoned work's own failure (aborted) is not reported twice.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, expired]);
    } catch (err) {
      throw toReadError(err);
    } finally {
      clearTimeout(timer);
    }
  }
}
