module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'channels',
  rootDir: __dirname,
};
