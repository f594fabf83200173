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
