// Jest settings that let a project's tests load PGlite (see jest-pglite-transform.cjs); spread into jest.config.cjs.
const path = require('node:path');
const preset = require('../../jest.preset.cjs');

module.exports = {
  transform: { ...preset.transform, '/@electric-sql/pglite/dist/.+\\.cjs$': path.join(__dirname, 'jest-pglite-transform.cjs') },
  transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/)'],
};
