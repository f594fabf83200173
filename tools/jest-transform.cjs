// Jest's TypeScript transform: esbuild strips the types of each file on its own (as ts-jest's isolated mode did, and
// as tools/build-app.mjs does for the bundles), about a hundred times faster than the TypeScript compiler. Types are
// checked once for the whole repository by tools/typecheck.mjs (`npm run typecheck`, the first step of `npm test`).
const { transformSync } = require('esbuild');
const { createHash } = require('node:crypto');
const { compileFunction } = require('node:vm');
const { version } = require('esbuild/package.json');

// `import()` becomes a require, as the TypeScript compiler does for CommonJS: jest runs CommonJS without the VM modules flag.
const options = { loader: 'ts', format: 'cjs', target: 'node24', supported: { 'dynamic-import': false }, sourcemap: 'inline', sourcesContent: false };

// Jest runs each test file in a vm context, where every read of a global name goes through the context's property
// interceptor: `Math.round` or `new Float64Array` in a loop over millions of samples costs ten to twenty times what it
// costs in a process (a 43 MB .ld written in 18 s under jest, 1.2 s outside). Each module binds these built-ins once,
// as module-scope constants (the same objects: spies on their methods still apply).
// Only built-ins that no test replaces: Date, timers and performance stay global lookups, as jest's fake timers swap
// them, and so do the typed arrays, which the formats' fuzz test replaces to track what the readers allocate.
// A module that declares one of these names itself (`class Map`, `let [JSON] = ...`: a redeclaration, which the
// compiler refuses) is left as it was; the check compiles it with jest's module parameters, once, as the output is cached.
const BUILT_INS = ['Math', 'Number', 'Array', 'Object', 'String', 'JSON', 'Map', 'Set', 'BigInt'];
// On the first line, so that the inline source map's lines still match.
const BINDING = `const { ${BUILT_INS.join(', ')} } = globalThis;`;
const MODULE_PARAMETERS = ['module', 'exports', 'require', '__dirname', '__filename', 'jest'];

function bindBuiltIns(code) {
  const bound = BINDING + code;
  try {
    compileFunction(bound, MODULE_PARAMETERS);
    return bound;
  } catch {
    return code;
  }
}

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, { ...options, sourcefile: filename });
    return { code: bindBuiltIns(code) };
  },
  getCacheKey(source, filename) {
    return createHash('sha1').update(version).update(JSON.stringify(options)).update(BINDING).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
