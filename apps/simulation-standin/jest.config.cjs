module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'simulation-standin',
  rootDir: __dirname,
};
