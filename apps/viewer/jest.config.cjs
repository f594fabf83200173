// Unit tests of the page's pure logic, and headless-Chromium tests against `npm start`'s bundle (dist/apps/standalone):
// the nx test target builds it first.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'viewer',
  rootDir: __dirname,
  // A data folder `npm start` initialised once, that each browser suite copies before its stack starts
  // (test/support/stack-template.ts): a first start (PGlite's initdb, every migration) cost each suite 10-20 s.
  globalSetup: require.resolve('./test/support/global-setup.ts'),
  globalTeardown: require.resolve('./test/support/global-teardown.ts'),
  testTimeout: 180_000,
};
