/**
 * Expressions that read one another by name (math channels): the order to evaluate them in, and the cycle that makes
 * an order impossible. `reads` maps each definition's name to the names its expression reads; names that are not
 * definitions (logged channels) are leaves.
 */
export type DependencyGraph = ReadonlyMap<string, readonly string[]>;

/** The first cycle reachable from `from` (or from any definition), as names with the first repeated last: [a, b, a]; null if none. */
export function findCycle(reads: DependencyGraph, from?: string): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | null => {
    const seen = state.get(name);
    if (seen === 'done') return null;
    if (seen === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    path.push(name);
    for (const next of reads.get(name) ?? []) {
      if (!reads.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of from === undefined ? reads.keys() : [from]) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * The definitions `roots` need, each after the ones it reads (roots included), and the other names they read
 * (the logged channels). Throws if they form a cycle (never the case for definitions checked on write).
 */
export function evaluationOrder(reads: DependencyGraph, roots: readonly string[]): { definitions: string[]; leaves: string[] } {
  const definitions: string[] = [];
  const leaves = new Set<string>();
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (placed.has(name)) return;
    const next = reads.get(name);
    if (!next) {
      leaves.add(name);
      return;
    }
    if (visiting.has(name)) throw new Error(`the definitions form a cycle: ${(findCycle(reads, name) ?? [name]).join(' → ')}`);
    visiting.add(name);
    for (const n of next) visit(n);
    visiting.delete(name);
    placed.add(name);
    definitions.push(name);
  };
  for (const root of roots) visit(root);
  return { definitions, leaves: [...leaves] };
}
