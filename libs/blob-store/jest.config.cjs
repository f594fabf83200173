module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'blob-store',
  rootDir: __dirname,
};
