module.exports = {
  ...require('../../jest.preset.cjs'),
  ...require('./jest-pglite.cjs'),
  displayName: 'db',
  rootDir: __dirname,
  globalSetup: require.resolve('../testing/src/global-setup.ts'),
};
