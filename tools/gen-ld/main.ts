// CLI for the synthetic .ld generator (bundle first, the repo has no TypeScript runner):
//   node_modules/.bin/esbuild tools/gen-ld/main.ts --bundle --platform=node --tsconfig=tsconfig.base.json --outfile=dist/tools/gen-ld.js
//   node dist/tools/gen-ld.js tmp/large.ld --duration 3600 --rates 1000x44,500x20,200x36,100x50,50x29,20x20
import { DEFAULT_GEN_LD, type GenLdOptions, generateLdFile } from './gen-ld';

function parseArgs(argv: string[]): { path: string; options: GenLdOptions } {
  const [path, ...rest] = argv;
  if (!path) throw new Error('usage: gen-ld <output.ld> [--duration seconds] [--rates 1000x44,500x20,...]');
  const options = { ...DEFAULT_GEN_LD };
  for (let i = 0; i < rest.length; i += 2) {
    if (rest[i] === '--duration') options.duration = Number(rest[i + 1]);
    else if (rest[i] === '--rates') options.rates = rest[i + 1].split(',').map((r) => ({ hz: Number(r.split('x')[0]), count: Number(r.split('x')[1] ?? 1) }));
    else throw new Error(`unknown option ${rest[i]}`);
  }
  return { path, options };
}

const { path, options } = parseArgs(process.argv.slice(2));
const started = performance.now();
const result = generateLdFile(path, options);
console.log(`${path}: ${(result.bytes / 1e6).toFixed(1)} MB, ${result.channels} channels, ${result.samples} samples in ${((performance.now() - started) / 1000).toFixed(1)} s`);
