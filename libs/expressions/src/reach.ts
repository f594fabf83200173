import type { ExpressionNode } from './ast';
import { CONSTANTS } from './functions';
import { PARAM_FUNCTION } from './param-function';
import { TIME_FUNCTIONS } from './time-functions';

/** How far from a time, in seconds and in samples of the time base (both may add up), a value at that time reads. */
export interface Margin {
  readonly seconds: number;
  readonly samples: number;
}

/**
 * What of its time base a math channel's value at a time depends on besides the inputs at that time: every sample from
 * the series' first (`start`: integral and lowpass carry their past along), and how far before and after it (derivative
 * reads one sample each side, smooth half its width each side). A reader evaluates over that context and keeps its own
 * window, so that the window's values are the whole file's (docs/math-channels.md).
 */
export interface Reach {
  readonly start: boolean;
  readonly before: Margin;
  readonly after: Margin;
}

const NO_MARGIN: Margin = { seconds: 0, samples: 0 };

/** A value that reads its inputs at its own time only. */
export const NO_REACH: Reach = { start: false, before: NO_MARGIN, after: NO_MARGIN };

/** Whether a reach reads nothing beyond its own time (a reader needs no context for it). */
export function reachesNothing(reach: Reach): boolean {
  const { start, before, after } = reach;
  return !start && before.seconds === 0 && before.samples === 0 && after.seconds === 0 && after.samples === 0;
}

/** What either reads: the larger margin of each kind (an upper bound of what both need). */
export function widerReach(a: Reach, b: Reach): Reach {
  if (reachesNothing(b)) return a;
  if (reachesNothing(a)) return b;
  const wider = (x: Margin, y: Margin): Margin => ({ seconds: Math.max(x.seconds, y.seconds), samples: Math.max(x.samples, y.samples) });
  return { start: a.start || b.start, before: wider(a.before, b.before), after: wider(a.after, b.after) };
}

/** What `outer` applied to a value of reach `inner` reads: their margins added (outer needs inner over its own margin). */
export function throughReach(outer: Reach, inner: Reach): Reach {
  if (reachesNothing(inner)) return outer;
  if (reachesNothing(outer)) return inner;
  const sum = (x: Margin, y: Margin): Margin => ({ seconds: x.seconds + y.seconds, samples: x.samples + y.samples });
  return { start: outer.start || inner.start, before: sum(outer.before, inner.before), after: sum(outer.after, inner.after) };
}

/** The reach of one time function over its argument. */
function reachOfCall(callee: keyof typeof TIME_FUNCTIONS, parameter: number): Reach {
  switch (callee) {
    case 'derivative':
      // Central difference: one sample each side (one-sided only at the series' own ends).
      return { start: false, before: { seconds: 0, samples: 1 }, after: { seconds: 0, samples: 1 } };
    case 'smooth': {
      // And one sample more: a sample at the window's edge is in it within a nanosecond of rounding (time-functions.ts).
      const half: Margin = { seconds: parameter / 2, samples: 1 };
      return { start: false, before: half, after: half };
    }
    case 'integral':
    case 'lowpass':
      return { start: true, before: NO_MARGIN, after: NO_MARGIN };
    case 'delay':
      // The samples around t − seconds: the delay and one sample more before.
      return { start: false, before: { seconds: parameter, samples: 1 }, after: NO_MARGIN };
  }
}

/**
 * The reach of a math-channel expression in two parts, so that it can be kept per expression text and combined with
 * the reach of the definitions it reads when a read resolves them: `own`, the widest reach over all its leaves (names
 * read as if they read nothing beyond their time), and `through`, for each name it reads, the widest reach of the time
 * functions around it. The reach of a definition is `own` widened by `through(name)` of the reach of each definition
 * it reads (throughReach), recursively.
 */
export interface ExpressionReach {
  readonly own: Reach;
  readonly through: ReadonlyMap<string, Reach>;
}

/** The reach of a parsed math-channel expression (a bare `pi` or `e` is the constant, never a name). */
export function expressionReach(ast: ExpressionNode): ExpressionReach {
  let own = NO_REACH;
  const through = new Map<string, Reach>();
  // Depth first with a stack of its own (nesting is bounded, but no recursion is needed).
  const stack: { node: ExpressionNode; outer: Reach }[] = [{ node: ast, outer: NO_REACH }];
  while (stack.length) {
    const { node, outer } = stack.pop() as { node: ExpressionNode; outer: Reach };
    switch (node.kind) {
      case 'number':
        own = widerReach(own, outer);
        break;
      case 'name': {
        own = widerReach(own, outer);
        if (node.quoted || !Object.hasOwn(CONSTANTS, node.name)) through.set(node.name, widerReach(through.get(node.name) ?? NO_REACH, outer));
        break;
      }
      case 'unary':
        stack.push({ node: node.argument, outer });
        break;
      case 'binary':
        stack.push({ node: node.left, outer }, { node: node.right, outer });
        break;
      case 'call': {
        if (node.callee === PARAM_FUNCTION) {
          // A constant over the file (its quoted argument names a parameter, not a channel).
          own = widerReach(own, outer);
        } else if (Object.hasOwn(TIME_FUNCTIONS, node.callee) && node.args[0]) {
          const parameter = node.args[1]?.kind === 'number' ? node.args[1].value : 0;
          stack.push({ node: node.args[0], outer: throughReach(outer, reachOfCall(node.callee as keyof typeof TIME_FUNCTIONS, parameter)) });
        } else if (node.args.length === 0) {
          own = widerReach(own, outer);
        } else {
          for (const arg of node.args) stack.push({ node: arg, outer });
        }
        break;
      }
    }
  }
  return { own, through };
}

/**
 * The reach of each of `definitions` (in evaluation order: each after those it reads), from each one's ExpressionReach:
 * its own, widened through each definition it reads. A name not among the definitions (a logged channel) reads nothing
 * beyond its time.
 */
export function definitionReaches(definitions: readonly { name: string; reach: ExpressionReach }[]): Map<string, Reach> {
  const reaches = new Map<string, Reach>();
  for (const { name, reach } of definitions) {
    let r = reach.own;
    for (const [read, outer] of reach.through) {
      const inner = reaches.get(read);
      if (inner) r = widerReach(r, throughReach(outer, inner));
    }
    reaches.set(name, r);
  }
  return reaches;
}
