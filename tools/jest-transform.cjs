// Jest's TypeScript transform: esbuild strips the types of each file on its own (as ts-jest's isolated mode did, and
// as tools/build-app.mjs does for the bundles), about a hundred times faster than the TypeScript compiler. Types are
// checked once for the whole repository by tools/typecheck.mjs (`npm run typecheck`, the first step of `npm test`).
const { transformSync } = require('esbuild');
const { createHash } = require('node:crypto');
const { version } = require('esbuild/package.json');

// `import()` becomes a require, as the TypeScript compiler does for CommonJS: jest runs CommonJS without the VM modules flag.
const options = { loader: 'ts', format: 'cjs', target: 'node24', supported: { 'dynamic-import': false }, sourcemap: 'inline', sourcesContent: false };

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, { ...options, sourcefile: filename });
    return { code };
  },
  getCacheKey(source, filename) {
    return createHash('sha1').update(version).update(JSON.stringify(options)).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
