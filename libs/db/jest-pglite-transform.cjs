// Jest runs modules in a vm without --experimental-vm-modules, where PGlite's CJS build fails on its
// `import("fs")`-style dynamic imports of Node built-ins. This transform turns them into `require`, for tests only;
// plain Node (npm start, the bundles) loads PGlite unchanged. Use it from any project whose tests start the
// embedded database: `...require('../../libs/db/jest-pglite.cjs')` in that project's jest.config.cjs.
const { createHash } = require('node:crypto');

const BUILTIN_IMPORT = /\bimport\("((?:node:)?(?:fs|fs\/promises|module|stream|stream\/promises|util|zlib|path|url|crypto|os))"\)/g;

module.exports = {
  process(source) {
    const code =
      'const __pitwallRequireBuiltin = require;\n' +
      source.replace(BUILTIN_IMPORT, (_m, name) => `Promise.resolve().then(() => { const m = __pitwallRequireBuiltin("${name}"); return { ...m, default: m }; })`);
    return { code };
  },
  getCacheKey(source) {
    return createHash('sha256').update('pitwall-pglite-v1').update(source).digest('hex');
  },
};
