// Unit tests of the page's pure logic, and headless-Chromium tests against `npm start`'s bundle (dist/apps/standalone):
// the nx test target builds it first.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'viewer',
  rootDir: __dirname,
  testTimeout: 180_000,
};
