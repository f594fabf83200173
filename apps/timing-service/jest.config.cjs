module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'timing-service',
  rootDir: __dirname,
};
