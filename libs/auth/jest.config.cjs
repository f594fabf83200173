module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'auth',
  rootDir: __dirname,
  globalSetup: require.resolve('../testing/src/global-setup.ts'),
};
