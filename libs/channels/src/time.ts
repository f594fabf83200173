/**
 * A time derived by arithmetic (a lap's end minus its start, a per-lap file's times shifted onto the dataset's axis,
 * sample i at start + i / frequency) to the nanosecond: finer than any logger's clock, and it drops the binary
 * floating-point residue (225.8 - 162.1 is 63.70000000000002, 0.45 + 0.1 is 0.5499999999999999). Every such time goes
 * through here, in the service and in what it shares with the client.
 */
export function toNanosecond(seconds: number): number {
  return Math.round(seconds * 1e9) / 1e9;
}
