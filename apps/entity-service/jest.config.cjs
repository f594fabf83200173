module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'entity-service',
  rootDir: __dirname,
};
