module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'simulation-service',
  rootDir: __dirname,
};
