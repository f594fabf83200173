module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'standalone',
  rootDir: __dirname,
};
