module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'random',
  rootDir: __dirname,
};
