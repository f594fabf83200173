module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'admin',
  rootDir: __dirname,
};
