/**
 * Room for partials at first: each lies below the last bit of the one above it, so 2,098 bits of exponent range hold
 * about 40 of them; the array grows if ever they are more.
 */
const PARTIALS = 48;

/**
 * An exact running sum of finite doubles, values added and taken away in any order: its value is the correctly
 * rounded sum of what it holds now, whatever passed through it before (Shewchuk's non-overlapping partials, as
 * Python's `math.fsum`). The partials never overlap, so there are at most about 40 of them (the exponent range over
 * 53 bits); among values of like magnitude one to three, and an add walks them once.
 *
 * The partials must not overflow: the caller keeps values of 2^960 and more in a sum of their own, scaled (see
 * `WindowSum`).
 */
export class ExactSum {
  /** Non-overlapping, in increasing magnitude, the first `length` of them; their exact sum is the sum held. */
  private partials = new Float64Array(PARTIALS);
  private length = 0;

  add(value: number): void {
    const p = this.partials;
    let x = value;
    let kept = 0;
    for (let j = 0; j < this.length; j++) {
      let y = p[j] as number;
      if (Math.abs(x) < Math.abs(y)) {
        const swap = x;
        x = y;
        y = swap;
      }
      // Two-sum: hi + lo is x + y exactly.
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[kept++] = lo;
      x = hi;
    }
    if (x !== 0) {
      if (kept === p.length) {
        this.partials = new Float64Array(p.length * 2);
        this.partials.set(p);
      }
      this.partials[kept++] = x;
    }
    this.length = kept;
  }

  /** The held sum, correctly rounded (ties to even, as the hardware rounds one addition). */
  value(): number {
    const p = this.partials;
    let k = this.length - 1;
    if (k < 0) return 0;
    let hi = p[k] as number;
    let lo = 0;
    while (k > 0) {
      const x = hi;
      const y = p[--k] as number;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // hi + lo rounded to hi; when lo is exactly half an ulp of hi, the partials below decide which way.
    const below = k > 0 ? (p[k - 1] as number) : 0;
    if ((lo < 0 && below < 0) || (lo > 0 && below > 0)) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}

/** Values at or above this magnitude are summed apart, scaled by 2^-SCALE_BITS (exactly: they are normal numbers). */
const LARGE = 2 ** 960;
const SCALE_BITS = 100;
const DOWN = 2 ** -SCALE_BITS;
const UP = 2 ** SCALE_BITS;

/**
 * The exact sum of a window of finite doubles, for their mean: two ExactSums, the values of 2^960 and more scaled
 * down by 2^100, so that neither overflows (2^53 values of under 2^960 sum under 2^1013). The mean is the same for the
 * same values whatever came and went before.
 */
export class WindowSum {
  private readonly small = new ExactSum();
  private readonly large = new ExactSum();
  private larges = 0;

  add(value: number): void {
    if (Math.abs(value) < LARGE) this.small.add(value);
    else {
      this.large.add(value * DOWN);
      this.larges++;
    }
  }

  remove(value: number): void {
    if (Math.abs(value) < LARGE) this.small.add(-value);
    else {
      this.large.add(-value * DOWN);
      this.larges--;
    }
  }

  /** The mean over `count` values (the large part divided before it is scaled back: it may be finite when the sum is not). */
  mean(count: number): number {
    const small = this.small.value() / count;
    return this.larges === 0 ? small : (this.large.value() / count) * UP + small;
  }
}
