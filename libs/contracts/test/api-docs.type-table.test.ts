import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENTITY_TYPES } from '../src/registry';

// docs/api.md's "Entity types" table is the users' reference of each type's built-in parameters: it must name
// exactly the parameters the registry declares, in the registry's order.
const API_DOC = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');

function documentedParameters(plural: string): string[] | undefined {
  const row = API_DOC.split('\n').find((line) => line.startsWith(`| ${plural} |`));
  if (!row) return undefined;
  const cell = row.split('|')[3] ?? '';
  return [...cell.matchAll(/`(\w+)`\s*\(/g)].map((m) => m[1] as string);
}

describe('docs/api.md entity types table', () => {
  test.each(ENTITY_TYPES.map((type) => [type.plural, type] as const))('when %s is documented, then its row names every built-in parameter of the registry', (plural, type) => {
    const documented = documentedParameters(plural);
    expect(documented).toBeDefined();
    expect(documented).toEqual(type.parameters.map((p) => p.name));
  });
});
