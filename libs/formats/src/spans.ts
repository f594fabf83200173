/**
 * Of spans of a file (blocks, records, samples: where each starts and how many bytes it takes), the first two by start
 * whose bytes overlap; undefined when they all lie apart. Sorted by start, spans lie apart exactly when each starts at
 * or after the end of the one before it. A reader refuses overlapping spans: data read through two of them would be
 * read (and held) twice, so a small file could decode to any size.
 */
export function firstOverlap<T extends { offset: number; length: number }>(spans: readonly T[]): [T, T] | undefined {
  const sorted = [...spans].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].offset < sorted[i - 1].offset + sorted[i - 1].length) return [sorted[i - 1], sorted[i]];
  }
  return undefined;
}

/**
 * Claims of blocks by their owners (a channel group by the data group whose chain reaches it), each block claimed once:
 * the second owner reaching a block is refused with what `shared(block, first, second)` makes. A reader refuses blocks
 * reached from two owners for the reason it refuses overlapping spans: what they hold would be read once for each.
 */
export function claimOnce(shared: (block: number, first: number, second: number) => Error): (block: number, owner: number) => void {
  const owners = new Map<number, number>();
  return (block, owner) => {
    const first = owners.get(block);
    if (first !== undefined) throw shared(block, first, owner);
    owners.set(block, owner);
  };
}
