module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'expressions',
  rootDir: __dirname,
};
