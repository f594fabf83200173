module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'formats',
  rootDir: __dirname,
};
