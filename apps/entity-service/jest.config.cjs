module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'entity-service',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
  testTimeout: 60_000,
};
