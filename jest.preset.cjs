// Shared jest settings: ts-jest in isolated mode (types are checked by the typecheck target),
// workspace path aliases mapped to sources so tests never need a build.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json') }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(test).ts'],
  // A project with no tests fails the run: every project has tests of its own.
  passWithNoTests: false,
};
