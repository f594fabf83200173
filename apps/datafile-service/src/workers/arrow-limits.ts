/**
 * The bounds of one Arrow answer. Every record batch carries every column (one schema for the stream), those of the
 * other batches' channels null: a read's batches times its columns grow as channels squared where each channel has a
 * time base of its own (an M4 read: maxPoints), and so do the null columns' zeros. Both are refused (413) before the
 * first byte, once the batches are known: not by READ_SAMPLE_BUDGET, which counts the samples decoded.
 */
export interface ArrowLimits {
  /** ARROW_MAX_BYTES: the answer's length, its null columns included. */
  maxBytes: number;
  /** ARROW_MAX_BATCH_COLUMNS: record batches times columns (each a node and its buffers in a batch's message, planned in memory). */
  maxBatchColumns: number;
}

/** The defaults (512 MiB; 250,000: e.g. 500 channels each with a time base of its own). */
export const ARROW_LIMITS: ArrowLimits = { maxBytes: 512 * 2 ** 20, maxBatchColumns: 250_000 };
