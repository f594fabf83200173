module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'service-host',
  rootDir: __dirname,
};
