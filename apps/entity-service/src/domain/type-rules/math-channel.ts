import { MAX_MATH_DECIMAL_PLACES } from '@pitwall/contracts';
import { compile, ExpressionError, findCycle, mathReadsOf, paramNamesOf, type DependencyGraph } from '@pitwall/expressions';
import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { ParameterValue } from '../parameters';
import { definitionNameProblem } from './definition-name';
import type { TypeRule } from './type-rule';

/**
 * A math channel (docs/math-channels.md): a name no other math channel of the account has, an expression in the
 * math-channel language (a 400 naming the character and the reason otherwise), a unit of at most 200 characters, a positive Rate if any, DecimalPlaces
 * from 0 to MAX_MATH_DECIMAL_PLACES if any, no cycle through the other math channels it reads (a 400 naming the
 * cycle), no more than `MAX_MATH_PARAMS` distinct parameters read through the definitions it reads, nor one reading it
 * brought past that (a 400), and on create room for it (`MAX_MATH_CHANNELS`, a 409). Writes of an account's math
 * channels are serialised, so two concurrent writes cannot close a cycle between them (nor pass the bound together).
 */
export const mathChannel: TypeRule = {
  async beforeWrite(q, accountId, { parameters, existing }, limits) {
    const reads = validateMathChannel(parameters, existing ? String(existing.parameters['Name'] ?? '') : undefined);
    await repo.lockEntityType(q, accountId, 'MathChannels');
    const others = (await repo.entitiesOfType(q, accountId, 'MathChannels')).filter((d) => d.id !== existing?.id);
    if (!existing && others.length >= limits.maxMathChannels) {
      throw AppError.conflict(`The account already has ${others.length} math channel${others.length === 1 ? '' : 's'}, the most it may hold (MAX_MATH_CHANNELS is ${limits.maxMathChannels}): delete one first`);
    }
    const name = String(parameters['Name']);
    const clash = others.find((d) => String(d.parameters['Name'] ?? '').toLowerCase() === name.toLowerCase());
    if (clash) throw AppError.badRequest('The math channel is not valid', { Name: [`another math channel is named ${String(clash.parameters['Name'])}`] });
    const graph = new Map<string, string[]>();
    for (const d of others) graph.set(String(d.parameters['Name'] ?? ''), readsOf(String(d.parameters['Expression'] ?? '')));
    graph.set(name, reads);
    const cycle = findCycle(graph, name);
    // The field that closed it: the name when only the name changed (another channel reads the new name).
    const renamed = existing !== null && String(existing.parameters['Name'] ?? '') !== name && String(existing.parameters['Expression'] ?? '') === String(parameters['Expression']);
    if (cycle) throw AppError.badRequest('The math channel is not valid', { [renamed ? 'Name' : 'Expression']: [`math channels may not read one another in a cycle: ${cycle.join(' → ')}`] });
    const expressions = new Map(others.map((d) => [String(d.parameters['Name'] ?? ''), String(d.parameters['Expression'] ?? '')]));
    expressions.set(name, String(parameters['Expression']));
    const past = paramsPast(graph, expressions, name, limits.maxMathParams, existing ? { name: String(existing.parameters['Name'] ?? ''), expression: String(existing.parameters['Expression'] ?? '') } : undefined);
    if (past) throw AppError.badRequest('The math channel is not valid', { [renamed ? 'Name' : 'Expression']: [past] });
  },
};

/**
 * Why the write of `name` (the graph and expressions as they would be) passes MAX_MATH_PARAMS, or undefined: it reads
 * more than `max` distinct parameters through the definitions it reads, or one reading it (through others) would, which
 * did not before the write (one already past, under a bound since lowered, does not stop writes that leave it so).
 * Each definition's names are gathered once and bounded (paramNamesOf): what a read of them will work out.
 */
function paramsPast(graph: DependencyGraph, expressions: ReadonlyMap<string, string>, name: string, max: number, before: { name: string; expression: string } | undefined): string | undefined {
  const readers = readersOf(graph, name);
  const after = paramNamesOf(graph, (d) => mathReadsOf(expressions.get(d) ?? '').params, max, [name, ...readers]);
  const bound = `more than ${max} distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is ${max})`;
  if (after.get(name) === null) return `the math channel would read ${bound}`;
  const over = readers.filter((reader) => after.get(reader) === null);
  if (!over.length) return undefined;
  // As the definitions were: the others as they are (no other is named `name`: the clash check), the written one's
  // former self in its place (none on create).
  const formerGraph = new Map(graph);
  const formerExpressions = new Map(expressions);
  formerGraph.delete(name);
  formerExpressions.delete(name);
  if (before) {
    formerGraph.set(before.name, readsOf(before.expression));
    formerExpressions.set(before.name, before.expression);
  }
  const former = paramNamesOf(formerGraph, (d) => mathReadsOf(formerExpressions.get(d) ?? '').params, max, over);
  const brought = over.find((reader) => former.get(reader) !== null);
  return brought === undefined ? undefined : `math channel ${brought}, which reads this one, would then read ${bound}`;
}

/** The definitions that read `name`, directly or through others. */
function readersOf(graph: DependencyGraph, name: string): string[] {
  const readBy = new Map<string, string[]>();
  for (const [reader, reads] of graph) {
    for (const read of reads) {
      const known = readBy.get(read);
      if (known) known.push(reader);
      else readBy.set(read, [reader]);
    }
  }
  const found = new Set<string>();
  const next = [name];
  while (next.length) {
    for (const reader of readBy.get(next.pop() as string) ?? []) {
      if (reader === name || found.has(reader)) continue;
      found.add(reader);
      next.push(reader);
    }
  }
  return [...found];
}

/** Checks the fields that need no other definition; the names the expression reads. `storedName`: the name stored, on update. */
export function validateMathChannel(p: Record<string, ParameterValue>, storedName?: string): string[] {
  const errors: FieldErrors = {};
  const name = typeof p['Name'] === 'string' ? p['Name'] : '';
  const nameProblem = definitionNameProblem(name, { characters: /["'\\]/, named: 'quotes, backslashes' }, storedName);
  if (nameProblem) errors['Name'] = [nameProblem];
  const expression = typeof p['Expression'] === 'string' ? p['Expression'] : '';
  let reads: string[] = [];
  if (!expression.trim()) errors['Expression'] = ['is required'];
  else {
    try {
      reads = [...compile(expression, { inputs: 'any', math: true }).inputs];
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      errors['Expression'] = [`at character ${error.position}: ${error.reason}`];
    }
  }
  const unit = p['Unit'];
  // A read sends the unit in each channel record (binary-channels.md): a long one would make every read of it a 422.
  if (typeof unit === 'string' && (unit.length > 200 || /\p{Cc}/u.test(unit))) errors['Unit'] = ['must be at most 200 characters, without control characters'];
  const rate = p['Rate'];
  // At least a sample every 1,000 s (a smaller positive number, 5e-324, gave a grid of one point whatever the file).
  if (rate !== null && rate !== undefined && !(typeof rate === 'number' && rate >= 0.001 && rate <= 1_000_000)) errors['Rate'] = ['must be a number of Hz from 0.001 to 1,000,000, or empty for the fastest input'];
  const places = p['DecimalPlaces'];
  // An Integer already (a whole number on the wire): only its range is this rule's.
  if (places !== null && places !== undefined && !(typeof places === 'number' && places >= 0 && places <= MAX_MATH_DECIMAL_PLACES)) {
    errors['DecimalPlaces'] = [`must be a whole number from 0 to ${MAX_MATH_DECIMAL_PLACES}, or empty for full precision`];
  }
  if (Object.keys(errors).length) throw AppError.badRequest('The math channel is not valid', errors);
  return reads;
}

/** What a stored definition reads; one that no longer parses reads nothing (it cannot be part of a cycle). */
function readsOf(expression: string): string[] {
  // Compiled once per expression text across writes (mathReadsOf keeps them); one that does not compile reads nothing.
  return [...mathReadsOf(expression).inputs];
}
