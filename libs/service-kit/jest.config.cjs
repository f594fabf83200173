module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'service-kit',
  rootDir: __dirname,
};
