// Regenerates libs/client/src/generated.ts from the entity registry (`npm run gen:client`).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'tmp', 'gen-client.cjs');
await build({
  stdin: { contents: "export { generateClientSource } from './libs/client/src/codegen'; export { ENTITY_TYPES } from './libs/contracts/src/registry';", resolveDir: root, loader: 'ts' },
  outfile: out, bundle: true, platform: 'node', format: 'cjs', packages: 'external', tsconfig: join(root, 'tsconfig.base.json'), logLevel: 'warning',
});
const { generateClientSource, ENTITY_TYPES } = createRequire(import.meta.url)(out);
writeFileSync(join(root, 'libs', 'client', 'src', 'generated.ts'), generateClientSource(ENTITY_TYPES));
console.log('wrote libs/client/src/generated.ts');
