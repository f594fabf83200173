module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'admin',
  rootDir: __dirname,
  globalSetup: require.resolve('../../libs/testing/src/global-setup.ts'),
};
