module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'datafile-service',
  rootDir: __dirname,
};
