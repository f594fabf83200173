// Shared jest settings: TypeScript stripped per file by esbuild (tools/jest-transform.cjs; types are checked once for
// the whole repository by tools/typecheck.mjs), workspace path aliases mapped to sources so tests never need a build.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': path.join(__dirname, 'tools', 'jest-transform.cjs'),
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(test).ts'],
  // A project with no tests fails the run: every project has tests of its own.
  passWithNoTests: false,
  // Jest's 5 s default is a time assertion in disguise: CI runs three projects at once on 2 cores, where a test that
  // reads a file through a stack can take longer. A hang still fails, at 30 s (projects may set more).
  testTimeout: 30_000,
};
