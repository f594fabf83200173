module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'laps',
  rootDir: __dirname,
};
