module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'contracts',
  rootDir: __dirname,
};
