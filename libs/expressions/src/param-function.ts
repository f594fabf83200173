import type { ExpressionNode } from './ast';
import { ExpressionError } from './expression-error';

/**
 * `param("Name")` in the math language: the number a named parameter holds for the data file's owner (its entity, the
 * setup it names, its car: docs/math-channels.md), one constant over the whole file. The language only names it; the
 * caller looks the value up and gives it to compile (CompileOptions.params), which folds it like a number written as
 * digits. The name is written in quotes, as parameters are named: a letter, then letters, digits or _.
 */
export const PARAM_FUNCTION = 'param';

/** How a parameter may be named (the entity-service's ParameterDefinitions rule, which the built-in names follow too). */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

/** The parameter a call of `param` names, or an ExpressionError at what is wrong: the argument count, an argument not a quoted name. */
export function paramNameOf(node: Extract<ExpressionNode, { kind: 'call' }>): string {
  if (node.args.length !== 1) throw new ExpressionError(node.start, `param takes one argument, a parameter's name in quotes (param("Ratio")), not ${node.args.length}`);
  const arg = node.args[0] as ExpressionNode;
  // Quoted: a bare name is a channel everywhere else in the language, and the value is one per file, never per sample.
  if (arg.kind !== 'name' || !arg.quoted) throw new ExpressionError(arg.start, `param's argument must be a parameter's name in quotes, as param("Ratio") (not a channel, a number or an expression)`);
  if (!PARAMETER_NAME.test(arg.name)) throw new ExpressionError(arg.start, `param's name must be a parameter's name: a letter, then letters, digits or _ (at most 100 characters), not "${arg.name}"`);
  return arg.name;
}
