module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'standalone',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
  testTimeout: 60_000,
};
