// End-to-end tests run the built bundles (dist/apps/*): the nx test target depends on their builds.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
  testTimeout: 60_000,
};
