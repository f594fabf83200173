module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'gateway',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
  testTimeout: 60_000,
};
