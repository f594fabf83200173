import { MAX_MATH_DECIMAL_PLACES } from '@pitwall/contracts';
import { compile, ExpressionError, findCycle, mathReadsOf } from '@pitwall/expressions';
import { AppError, type FieldErrors } from '@pitwall/service-kit';
import { entityRepository as repo } from '../../data-access/entity-repository';
import type { ParameterValue } from '../parameters';
import { definitionNameProblem } from './definition-name';
import type { TypeRule } from './type-rule';

/**
 * A math channel (docs/math-channels.md): a name no other math channel of the account has, an expression in the
 * math-channel language (a 400 naming the character and the reason otherwise), a unit of at most 200 characters, a positive Rate if any, DecimalPlaces
 * from 0 to MAX_MATH_DECIMAL_PLACES if any, no cycle through the other math channels it reads (a 400 naming the
 * cycle), and on create room for it (`MAX_MATH_CHANNELS`, a 409). Writes of an account's math channels are
 * serialised, so two concurrent writes cannot close a cycle between them.
 */
export const mathChannel: TypeRule = {
  async beforeWrite(q, accountId, { parameters, existing }, limits) {
    const reads = validateMathChannel(parameters);
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
  },
};

/** Checks the fields that need no other definition; the names the expression reads. */
export function validateMathChannel(p: Record<string, ParameterValue>): string[] {
  const errors: FieldErrors = {};
  const name = typeof p['Name'] === 'string' ? p['Name'] : '';
  const nameProblem = definitionNameProblem(name, { characters: /["'\\]/, named: 'quotes, backslashes' });
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
