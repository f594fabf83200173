import { evaluationOrder, type DependencyGraph } from './dependencies';

/**
 * The most distinct parameters (`param("Name")`) one math channel may read through the definitions it reads, and one
 * read may need, when the service's MAX_MATH_PARAMS does not say (docs/math-channels.md). Names add up along a chain of
 * definitions: without a bound, a thousand definitions each reading the one before and 273 names of its own made a
 * list of 241,080 names for one read, built on the event loop.
 */
export const DEFAULT_MAX_MATH_PARAMS = 1024;

/**
 * The distinct parameter names a definition reads, its own and through the definitions it reads, each once (as the
 * definitions write them, in the order a walk from it meets them); null when they are more than the bound.
 */
export type ParamNames = ReadonlySet<string> | null;

const NO_NAMES: ReadonlySet<string> = new Set();

/** A definition's own names, or null when they alone pass `max`. */
export function ownParamNames(params: readonly string[], max: number): ParamNames {
  if (!params.length) return NO_NAMES;
  const names = new Set(params);
  return names.size > max ? null : names;
}

/**
 * One definition's ParamNames being gathered from its own and those of the definitions it reads: a set shared with the
 * one it came from until a name is added (a definition reading one other and no parameter of its own holds that one's
 * set), never holding more than `max` + 1 names: past `max` it is null, and merging into it is free. So merging a
 * definition costs at most the bound, whatever the length of the chain above it.
 */
export class ParamNamesBuilder {
  private names: ParamNames;
  private owned = false;

  constructor(
    own: ParamNames,
    private readonly max: number,
  ) {
    this.names = own;
  }

  add(from: ParamNames): void {
    if (this.names === null || from === this.names || from?.size === 0) return;
    if (from === null) {
      this.names = null;
      return;
    }
    if (this.names.size === 0) {
      this.names = from;
      return;
    }
    for (const name of from) {
      if (this.names.has(name)) continue;
      if (!this.owned) {
        this.names = new Set(this.names);
        this.owned = true;
      }
      (this.names as Set<string>).add(name);
      if (this.names.size > this.max) {
        this.names = null;
        return;
      }
    }
  }

  get result(): ParamNames {
    return this.names;
  }
}

/**
 * The ParamNames of `roots` and of every definition they read (through one another), each worked out once, in
 * evaluation order (`evaluationOrder`: throws on a cycle); `paramsOf` gives a definition's own names.
 */
export function paramNamesOf(graph: DependencyGraph, paramsOf: (name: string) => readonly string[], max: number, roots: readonly string[]): Map<string, ParamNames> {
  const out = new Map<string, ParamNames>();
  for (const name of evaluationOrder(graph, roots).definitions) {
    const names = new ParamNamesBuilder(ownParamNames(paramsOf(name), max), max);
    for (const read of graph.get(name) ?? []) if (out.has(read)) names.add(out.get(read) as ParamNames);
    out.set(name, names.result);
  }
  return out;
}
