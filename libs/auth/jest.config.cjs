module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'auth',
  rootDir: __dirname,
};
