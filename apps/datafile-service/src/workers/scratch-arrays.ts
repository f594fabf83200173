/** `DATAFILE_SCRATCH_BYTES`'s default: what a pool worker keeps between tasks (64 MiB: 8 million samples). */
export const DEFAULT_SCRATCH_BYTES = 64 * 1024 * 1024;

/** What the service gives each pool worker of its config (the pool's `workerData`). */
export interface ShapeWorkerData {
  /** `DATAFILE_SCRATCH_BYTES`: a byte count, validated at the service's start. */
  scratchBytes: number;
}

/**
 * Float64 arrays a pool worker lends to a task and takes back when the task ends, to lend again to the next: the math
 * channels a read evaluates in its shaping task are written into them (docs/math-channels.md). A new array is memory
 * the process never touched; on a virtual machine the first touch of a page can cost more than evaluating into it
 * (about 14 µs a 4 KiB page measured here: 10 ms for a 360,000-sample result, against 3 ms for the evaluation).
 *
 * An array is a view of the first `length` samples of a buffer at least that long: the smallest free buffer that
 * holds it and is at most twice its size (a large buffer lent to a small channel would leave the large one of the same
 * read to new memory), else a new one. What a task borrows stays lent until its body is sent, except what it gives
 * back sooner (`release`): an evaluation's intermediate arrays (a time function's argument and series once the steps
 * reading them have run, a definition no later one reads) are lent again to the same task, so a chain of definitions
 * holds its results and one definition's intermediates at once, not every array it made. Buffers given back are kept
 * up to `retainBytes` in all (the smallest first, the rest dropped), so an idle worker holds at most that much; a task
 * may borrow more (the read's sample budget bounds it), which is dropped when it ends.
 */
export class ScratchArrays {
  private free: ArrayBuffer[] = [];

  constructor(private readonly retainBytes: number) {}

  /** A lease for one task: its arrays are its own until it gives them back (once; nothing may use them after). */
  lend(): { take(length: number): Float64Array; release(array: Float64Array): void; giveBack(): void } {
    let lent: ArrayBuffer[] | undefined = [];
    return {
      take: (length) => {
        if (!lent) throw new Error('the scratch arrays of this task were given back');
        const buffer = this.bufferOf(length * Float64Array.BYTES_PER_ELEMENT);
        lent.push(buffer);
        return new Float64Array(buffer, 0, length);
      },
      release: (array) => {
        // Free again at once, for this task's next take (kept or dropped with the rest when the task ends).
        const at = lent ? lent.lastIndexOf(array.buffer as ArrayBuffer) : -1;
        if (!lent || at < 0) throw new Error('an array given back that this task was not lent');
        lent.splice(at, 1);
        this.free.push(array.buffer as ArrayBuffer);
      },
      giveBack: () => {
        if (!lent) return;
        this.keep(lent);
        lent = undefined;
      },
    };
  }

  /** Bytes kept for the tasks to come. */
  get kept(): number {
    return this.free.reduce((n, b) => n + b.byteLength, 0);
  }

  private bufferOf(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = (this.free[i] as ArrayBuffer).byteLength;
      if (size >= bytes && size <= 2 * bytes && (best < 0 || size < (this.free[best] as ArrayBuffer).byteLength)) best = i;
    }
    return best >= 0 ? (this.free.splice(best, 1)[0] as ArrayBuffer) : new ArrayBuffer(bytes);
  }

  private keep(buffers: readonly ArrayBuffer[]): void {
    // A buffer moved to another thread (detached) is not one to lend again.
    const all = [...this.free, ...buffers.filter((b) => b.byteLength > 0)].sort((a, b) => a.byteLength - b.byteLength);
    let kept = 0;
    this.free = all.filter((buffer) => {
      if (kept + buffer.byteLength > this.retainBytes) return false;
      kept += buffer.byteLength;
      return true;
    });
  }
}
