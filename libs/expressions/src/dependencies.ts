/**
 * Expressions that read one another by name (math channels): the order to evaluate them in, and the cycle that makes
 * an order impossible. `reads` maps each definition's name to the names its expression reads; names that are not
 * definitions (logged channels) are leaves.
 */
export type DependencyGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The first cycle reachable from `from` (or from any definition), as names with the first repeated last: [a, b, a]; null if none.
 * Walked with a stack of its own, not by recursion: an account's definitions may chain thousands deep.
 */
export function findCycle(reads: DependencyGraph, from?: string): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  for (const root of from === undefined ? reads.keys() : [from]) {
    if (state.get(root) === 'done') continue;
    // path[k] is a definition being visited; next[k] the index of the next name it reads to look at.
    const path: string[] = [root];
    const next: number[] = [0];
    state.set(root, 'visiting');
    while (path.length) {
      const top = path.length - 1;
      const name = path[top] as string;
      const read = reads.get(name) ?? [];
      const i = next[top] as number;
      if (i === read.length) {
        path.pop();
        next.pop();
        state.set(name, 'done');
        continue;
      }
      next[top] = i + 1;
      const child = read[i] as string;
      if (!reads.has(child)) continue;
      const seen = state.get(child);
      if (seen === 'visiting') return [...path.slice(path.indexOf(child)), child];
      if (seen === 'done') continue;
      state.set(child, 'visiting');
      path.push(child);
      next.push(0);
    }
  }
  return null;
}

/**
 * The definitions `roots` need, each after the ones it reads (roots included), and the other names they read
 * (the logged channels). Throws if they form a cycle (never the case for definitions checked on write).
 * Walked with a stack of its own, as `findCycle`.
 */
export function evaluationOrder(reads: DependencyGraph, roots: readonly string[]): { definitions: string[]; leaves: string[] } {
  const definitions: string[] = [];
  const leaves = new Set<string>();
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const path: string[] = [];
  const next: number[] = [];
  // Enters a name: a leaf is noted at once, a definition goes on the path to be placed after what it reads.
  const enter = (name: string) => {
    if (placed.has(name)) return;
    if (!reads.has(name)) {
      leaves.add(name);
      return;
    }
    if (visiting.has(name)) throw new Error(`the definitions form a cycle: ${(findCycle(reads, name) ?? [name]).join(' → ')}`);
    visiting.add(name);
    path.push(name);
    next.push(0);
  };
  for (const root of roots) {
    enter(root);
    while (path.length) {
      const top = path.length - 1;
      const name = path[top] as string;
      const read = reads.get(name) as readonly string[];
      const i = next[top] as number;
      if (i === read.length) {
        path.pop();
        next.pop();
        visiting.delete(name);
        placed.add(name);
        definitions.push(name);
        continue;
      }
      next[top] = i + 1;
      enter(read[i] as string);
    }
  }
  return { definitions, leaves: [...leaves] };
}
