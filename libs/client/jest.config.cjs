module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'client',
  rootDir: __dirname,
};
