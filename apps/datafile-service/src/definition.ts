import { join } from 'node:path';
import { z } from 'zod';
import { blobStoreFromConfig, blobStoreSettings, watchedBlobStore } from '@pitwall/blob-store';
import { ClaimDesk, claimDeskSettings, claimSecret } from '@pitwall/bus';
import { EXCHANGES, SERVICES } from '@pitwall/contracts';
import { DEFAULT_LZ4_LIMITS, DEFAULT_MAX_CHANNELS_PER_FILE, DEFAULT_MAX_LAPS_PER_FILE, StoredChannelCache } from '@pitwall/formats';
import { DEFAULT_MAX_MATH_PARAMS } from '@pitwall/expressions';
import { defineService } from '@pitwall/service-host';
import { AppError, intVar, memoryShareBytesVar, msVar, writableDirectory } from '@pitwall/service-kit';
import { ANALYSIS_LIMITS, DataFileReads } from './domain/data-file-reads';
import { ReadResultCache } from './domain/read-result-cache';
import { DatasetConstants } from './domain/dataset-constants';
import { codeVersionOf } from './domain/code-version';
import { Datasets } from './domain/datasets';
import { DecompressedCache } from './domain/decompressed-cache';
import { MathDefinitions } from './domain/math-definitions';
import { FairPool } from './domain/fair-pool';
import { STREAM_STALL_DEFAULTS, StalledStreams, streamStallBounds } from './domain/stalled-streams';
import { TrackSectors } from './domain/track-sectors';
import { CACHE_EVENT_KEYS, cacheEvents } from './entry-points/bus/cache-events';
import { datafileCommands } from './entry-points/bus/datafile-commands';
import { MATH_CHANNEL_EVENT_KEYS, mathChannelEvents } from './entry-points/bus/math-channel-events';
import type { ShapeTask } from './workers/shape-channels';
import { DEFAULT_SCRATCH_BYTES, type ShapeWorkerData } from './workers/scratch-arrays';
import { ARROW_LIMITS } from './workers/arrow-limits';
import { DEFAULT_MAX_CATALOGUE_CHARS, DEFAULT_MAX_CATALOGUE_LABELS } from './workers/whole-files';

const MiB = 1024 * 1024;

/** The datafile-service's settings. */
export const DatafileConfig = z.object({
  // Where the bytes are (BLOB_STORE, BLOB_DIR, S3_*, DATA_DIR; docs/blob-store.md), checked at start like every setting.
  ...blobStoreSettings,
  /** Where LZ4-compressed blobs are decompressed for random access; default `DATA_DIR/decompressed`. */
  DATAFILE_CACHE_DIR: z.string().min(1).optional(),
  /** Bound of the decompressed copies on disk (default 8 GiB). */
  DATAFILE_CACHE_BYTES: intVar(8192 * MiB),
  /** Bound of the stored-channel cache in memory (default 256 MiB; 0 turns it off). */
  DATAFILE_CHANNEL_CACHE_BYTES: memoryShareBytesVar(256 * MiB),
  /** Bound of the encoded answers kept by content (default 64 MiB; 0 turns it off). */
  DATAFILE_RESULT_CACHE_BYTES: memoryShareBytesVar(64 * MiB),
  /** What each pool worker keeps, between reads, of the arrays math channels are evaluated into (default 64 MiB; 0: none; given to the workers). */
  DATAFILE_SCRATCH_BYTES: memoryShareBytesVar(DEFAULT_SCRATCH_BYTES),
  /**
   * Each pool worker's JavaScript heap (MiB, default 1024; 0: the process's own bound): a read or a file whose decoding
   * would pass it ends that worker alone (replaced at once) and is a 422 naming this variable, not the process. Typed
   * arrays (decoded samples, file bytes) live outside it: READ_SAMPLE_BUDGET and MAX_IN_MEMORY_FILE_BYTES bound those.
   */
  DATAFILE_WORKER_HEAP_MB: intVar(1024, { min: 0 }),
  /** A read over this is a 504 and its work is abandoned (default 30 s). */
  DATAFILE_READ_TIMEOUT_MS: msVar(30_000),
  /**
   * A streamed answer whose client took none of it this long gives its pool thread up (its transfer aborted) while other
   * work waits for a thread (ms, default 10 s, at least 100).
   */
  DATAFILE_STREAM_STALL_MS: msVar(STREAM_STALL_DEFAULTS.stallMs, { min: 100 }),
  /** ...and this long whether or not other work waits (ms, default 2 min; at least DATAFILE_STREAM_STALL_MS). */
  DATAFILE_STREAM_MAX_STALL_MS: msVar(STREAM_STALL_DEFAULTS.maxStallMs, { min: 100 }),
  /** Channels of one file (or per-lap group) catalogued; more is a 422 (default 20,000). */
  MAX_CHANNELS_PER_FILE: intVar(DEFAULT_MAX_CHANNELS_PER_FILE),
  /** Laps a data file (or files a per-lap group) may have: its laps are held with its catalogue and listed in its metadata. */
  MAX_LAPS_PER_FILE: intVar(DEFAULT_MAX_LAPS_PER_FILE),
  /** Text labels (value→text conversions) a file's channels may carry together in its catalogue; more is a 422 (default 1,000,000). */
  DATAFILE_MAX_CATALOGUE_LABELS: intVar(DEFAULT_MAX_CATALOGUE_LABELS),
  /** Characters of a file's channel names, units and labels together in its catalogue; more is a 422 (default 16 Mi). */
  DATAFILE_MAX_CATALOGUE_CHARS: intVar(DEFAULT_MAX_CATALOGUE_CHARS),
  /** Decoded samples one read may need; more is a 413 (default 16 M). */
  READ_SAMPLE_BUDGET: intVar(16_000_000),
  /** An Arrow answer's bytes, its null columns included (every batch carries every column); more is a 413 before its first byte (default 512 MiB). */
  ARROW_MAX_BYTES: intVar(ARROW_LIMITS.maxBytes),
  /** An Arrow answer's record batches times its columns; more is a 413 before it is planned (default 250,000). */
  ARROW_MAX_BATCH_COLUMNS: intVar(ARROW_LIMITS.maxBatchColumns),
  /** Bins one histogram may have; more is a 400 (default 1,000). */
  HISTOGRAM_MAX_BINS: intVar(ANALYSIS_LIMITS.maxBins),
  /** Cells of a scatter's density grid along each axis; more is a 400 (default 256, so at most 65,536 cells). */
  SCATTER_MAX_GRID: intVar(ANALYSIS_LIMITS.maxGrid),
  /** Pairs a scatter may answer as points (its maxPoints); more is a 400 (default 10,000). */
  SCATTER_MAX_POINTS: intVar(ANALYSIS_LIMITS.maxPoints),
  /** Lap × channel statistics one lap statistics answer may hold (laps of the file times channels asked); more is a 400 before any work (default 1,000,000: about 100 MB of JSON). */
  LAPSTATS_MAX_CELLS: intVar(ANALYSIS_LIMITS.maxLapStatsCells),
  /**
   * Distinct parameters (param("Name")) one math channel may read through the definitions it reads, and one read need
   * together; more is a 422 naming it, and the metadata leaves such a channel out (default 1,024).
   */
  MAX_MATH_PARAMS: intVar(DEFAULT_MAX_MATH_PARAMS),
  /** Bytes of the files read whole (every format but a single .ld) of one dataset; more is a 422 (default 256 MiB). */
  MAX_IN_MEMORY_FILE_BYTES: intVar(256 * MiB),
  /** Decompressed bytes per compressed byte of an LZ4-compressed file (declared content sizes included), and of an MDF4 file's compressed data blocks (default 64). */
  LZ4_MAX_RATIO: intVar(DEFAULT_LZ4_LIMITS.maxRatio),
  /** Decompressed bytes of one LZ4-compressed file, and of an MDF4 file's compressed data blocks, at most (default 4 GiB). */
  LZ4_MAX_DECOMPRESSED_BYTES: intVar(DEFAULT_LZ4_LIMITS.maxBytes),
  // Answers over CLAIM_INLINE_MAX_BYTES are fetched from this instance's claim port, not carried by the broker.
  ...claimDeskSettings,
});

/** Reads attached data files: metadata and channels of a dataset, decoded and encoded on the `shape` worker pool. */
export const datafileService = defineService({
  name: 'datafile-service',
  config: DatafileConfig,
  pools: [
    {
      name: 'shape',
      entry: 'shape.worker.entry.js',
      workerData: (config) => ({ scratchBytes: config.DATAFILE_SCRATCH_BYTES }) satisfies ShapeWorkerData,
      heapLimit: (config) => ({
        mb: config.DATAFILE_WORKER_HEAP_MB,
        outOfMemory: () =>
          new AppError(422, `Reading this needs more memory than one read may use (DATAFILE_WORKER_HEAP_MB is ${config.DATAFILE_WORKER_HEAP_MB} MiB): the file's structure or the read asked too much of it; read a lap or fewer channels, and if it is a file of yours that other tools read, tell the operators`),
      }),
    },
  ],
  build: async ({ bus, config, workers, logger, shared, name, graceEnd }) => {
    const stallBounds = streamStallBounds(config);
    const blobs = blobStoreFromConfig(config);
    const lz4 = { maxBytes: config.LZ4_MAX_DECOMPRESSED_BYTES, maxRatio: config.LZ4_MAX_RATIO };
    const cacheDir = config.DATAFILE_CACHE_DIR ?? join(config.DATA_DIR, 'decompressed');
    // Checked at start: found unwritable only at the first LZ4 read, every such read would fail.
    await writableDirectory(cacheDir, config.DATAFILE_CACHE_DIR ? 'DATAFILE_CACHE_DIR' : 'DATA_DIR (its decompressed/ folder, DATAFILE_CACHE_DIR unset)');
    const pool = workers['shape'] as NonNullable<(typeof workers)['shape']>;
    // One user's burst of reads does not hold every thread while another user's read waits (fair-pool.ts).
    const fair = new FairPool(pool, pool.options.maxThreads);
    // LZ4 blobs are decompressed on the pool: seconds of CPU for a large file, off the event loop of the claim port.
    const decompressed = new DecompressedCache(cacheDir, config.DATAFILE_CACHE_BYTES, lz4, fair.forUser(''));
    await decompressed.trim();
    const datasets = new Datasets(bus, blobs, decompressed, { pool: fair.forUser(''), maxChannels: config.MAX_CHANNELS_PER_FILE, maxLaps: config.MAX_LAPS_PER_FILE, maxLabels: config.DATAFILE_MAX_CATALOGUE_LABELS, maxChars: config.DATAFILE_MAX_CATALOGUE_CHARS, maxInMemoryBytes: config.MAX_IN_MEMORY_FILE_BYTES, decompression: lz4 });
    const cache = new StoredChannelCache(config.DATAFILE_CHANNEL_CACHE_BYTES);
    // A first task loads the worker's bundle in its thread now, not during the first read after a start.
    await pool.run({ channels: [], binary: true } satisfies ShapeTask);
    const results = new ReadResultCache(config.DATAFILE_RESULT_CACHE_BYTES);
    const mathDefinitions = new MathDefinitions(bus);
    const codeVersion = codeVersionOf([process.argv[1], pool.options.filename]);
    // A client that takes nothing of a streamed answer does not hold its pool thread while others wait, nor for ever.
    const streams = new StalledStreams(fair, stallBounds, logger);
    const reads = new DataFileReads(datasets, cache, fair, { streams, timeoutMs: config.DATAFILE_READ_TIMEOUT_MS, sampleBudget: config.READ_SAMPLE_BUDGET, arrowLimits: { maxBytes: config.ARROW_MAX_BYTES, maxBatchColumns: config.ARROW_MAX_BATCH_COLUMNS }, analysis: { maxBins: config.HISTOGRAM_MAX_BINS, maxGrid: config.SCATTER_MAX_GRID, maxPoints: config.SCATTER_MAX_POINTS, maxLapStatsCells: config.LAPSTATS_MAX_CELLS }, codeVersion, maxParams: config.MAX_MATH_PARAMS }, results, mathDefinitions, new TrackSectors(bus), new DatasetConstants(bus));
    const desk = new ClaimDesk({ secret: claimSecret(config.CLAIM_SECRET, !shared.bus, name, logger), ...(config.CLAIM_SECRET_PREVIOUS ? { previousSecrets: [config.CLAIM_SECRET_PREVIOUS] } : {}), inlineMaxBytes: config.CLAIM_INLINE_MAX_BYTES, ttlMs: config.CLAIM_TTL_MS, maxWaiting: config.CLAIM_MAX_WAITING, port: config.CLAIM_PORT, host: config.CLAIM_HOST, ...(config.CLAIM_ADVERTISE_HOST ? { advertiseHost: config.CLAIM_ADVERTISE_HOST } : {}), logger });
    logger.info({ claims: await desk.start() }, 'claim port listening');
    return {
      reads,
      datasets,
      decompressed,
      cache,
      results,
      blobs,
      desk,
      pool,
      streams,
      fair,
      mathDefinitions,
      stop: async () => {
        // The claims of the reads it answered are fetched before it goes, within the stop's grace.
        await desk.stop(graceEnd());
        await datasets.close();
        // Its readiness probe, started with the service and awaited by nobody, may still be making the directory.
        await blobs.close();
      },
    };
  },
  // Probed once at start too: an unreadable or absent store is logged with its cause as the process starts.
  health: ({ blobs }, { logger }) => ({ blobStore: watchedBlobStore(blobs, logger) }),
  metrics: ({ streams, cache, results, fair }, metrics) => {
    // The reads waiting for a pool thread: FairPool holds them (the pool's own queue stays about empty).
    metrics.gauge('pitwall_datafile_reads_waiting', 'Pool tasks (reads, decodes) waiting for a thread, in the fair queue and the pool', () => fair.queueSize);
    metrics.gauge('pitwall_datafile_streams_running', 'Large answers streaming from a pool task now (each holds a pool thread)', () => streams.running);
    metrics.gauge('pitwall_datafile_channel_cache_bytes', 'Bytes of decoded channels cached (DATAFILE_CHANNEL_CACHE_BYTES)', () => cache.bytes);
    metrics.gauge('pitwall_datafile_result_cache_bytes', 'Bytes of encoded read answers cached (DATAFILE_RESULT_CACHE_BYTES)', () => results.heldBytes);
  },
  bus: { service: SERVICES.datafile, commands: ({ reads, desk }) => datafileCommands(reads, desk) },
  // Every instance drops its own caches of an entity whose attached files changed or which was deleted.
  subscriptions: [
    { exchange: EXCHANGES.entityEvents, queue: 'datafile.cache-invalidation', bindingKeys: CACHE_EVENT_KEYS, perInstance: true, handler: (parts, { logger }) => cacheEvents(parts, logger) },
    // Every instance lists an account's math channels again once one of them changed.
    { exchange: EXCHANGES.entityEvents, queue: 'datafile.math-channels', bindingKeys: MATH_CHANNEL_EVENT_KEYS, perInstance: true, handler: ({ mathDefinitions }) => mathChannelEvents(mathDefinitions) },
  ],
});
