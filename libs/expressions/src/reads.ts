import type { ExpressionNode } from './ast';
import { compile } from './compile';
import { expressionReach, NO_REACH, type ExpressionReach } from './reach';

/** What a math-channel expression reads and needs of the laps, or why it does not compile. */
export interface MathReads {
  inputs: readonly string[];
  /** The parameters it reads with `param("Name")`, in order of first use (none when it does not compile). */
  params: readonly string[];
  needs: { lapTime: boolean; lapDistance: boolean; lapNumber: boolean };
  /** The most arrays of its time base's length one evaluation of it allocates, its result included (CompiledExpression.arrays); 0 when it does not compile. */
  arrays: number;
  /**
   * Its operators and function calls: what one sample of its evaluation costs (from about a nanosecond for `+` to about
   * 13 for `sin`), which a reader counts its work by beside its arrays; 0 when it does not compile.
   */
  operations: number;
  /**
   * What its time functions read beyond each time (ExpressionReach): a reader evaluates over that context, so that a
   * window's values are the whole file's. Nothing for an expression that does not compile.
   */
  reach: ExpressionReach;
  /** The compile error's message, for an expression that does not compile (then it reads nothing). */
  error?: string;
}

const NO_EXPRESSION_REACH: ExpressionReach = { own: NO_REACH, through: new Map() };

/** Expressions kept compiled, the most recently used (each at most MAX_EXPRESSION_LENGTH characters: a few MB at most). */
const KEPT = 4096;
const kept = new Map<string, MathReads>();

/**
 * `compile(expression, { inputs: 'any', math: true })`'s reads, compiled once per expression text and kept: an
 * account's definitions are all looked at on every math channel read and write (their graph), and compiling one of
 * the longest costs about a millisecond, so a thousand were seconds on the event loop of every read.
 */
export function mathReadsOf(expression: string): MathReads {
  const known = kept.get(expression);
  if (known) {
    kept.delete(expression);
    kept.set(expression, known);
    return known;
  }
  let reads: MathReads;
  try {
    const c = compile(expression, { inputs: 'any', math: true });
    reads = { inputs: [...c.inputs], params: [...c.params], needs: { lapTime: c.needs.lapTime, lapDistance: c.needs.lapDistance, lapNumber: c.needs.lapNumber }, arrays: c.arrays, operations: operationsOf(c.ast), reach: expressionReach(c.ast) };
  } catch (error) {
    reads = { inputs: [], params: [], needs: { lapTime: false, lapDistance: false, lapNumber: false }, arrays: 0, operations: 0, reach: NO_EXPRESSION_REACH, error: (error as Error).message };
  }
  kept.set(expression, reads);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return reads;
}

/** The operators and calls of a tree (its numbers and names cost nothing of their own). */
function operationsOf(root: ExpressionNode): number {
  let count = 0;
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.kind === 'unary') stack.push(node.argument);
    else if (node.kind === 'binary') stack.push(node.left, node.right);
    else if (node.kind === 'call') stack.push(...node.args);
    else continue;
    count++;
  }
  return count;
}
