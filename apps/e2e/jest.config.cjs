// End-to-end tests run the built bundles (dist/apps/*): the nx test target depends on their builds.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  // The servers up, then one five-process stack for the files that only make requests (test/support/shared-stack.ts).
  globalSetup: require.resolve('./test/support/global-setup.ts'),
  globalTeardown: require.resolve('./test/support/global-teardown.ts'),
  testTimeout: 60_000,
};
