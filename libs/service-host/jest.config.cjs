module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'service-host',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
  testTimeout: 30_000,
};
