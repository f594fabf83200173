// Regenerates libs/client/src/generated.ts from the operation table (`npm run gen:client`).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'tmp', 'gen-client.cjs');
await build({
  stdin: { contents: "export { generateClientSource } from './libs/client/src/codegen'; export { OPERATIONS } from './libs/contracts/src/operations';", resolveDir: root, loader: 'ts' },
  outfile: out, bundle: true, platform: 'node', format: 'cjs', packages: 'external', tsconfig: join(root, 'tsconfig.base.json'), logLevel: 'warning',
});
const { generateClientSource, OPERATIONS } = createRequire(import.meta.url)(out);
writeFileSync(join(root, 'libs', 'client', 'src', 'generated.ts'), generateClientSource(OPERATIONS));
console.log('wrote libs/client/src/generated.ts');
