module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'messaging',
  rootDir: __dirname,
  globalSetup: require.resolve('../testing/src/global-setup.ts'),
  testTimeout: 60_000,
};
