// End-to-end tests run the built bundles (dist/apps/*): the nx test target depends on their builds.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'e2e',
  rootDir: __dirname,
  // The servers up, then one five-process stack for the files that only make requests (test/support/shared-stack.ts).
  globalSetup: require.resolve('./test/support/global-setup.ts'),
  globalTeardown: require.resolve('./test/support/global-teardown.ts'),
  testTimeout: 60_000,
  // Two files at a time whatever the cores (jest's default is one fewer than the cores: one on a 2-core machine). A
  // file mostly waits on its stack's processes and the servers: one at a time left a 2-core machine about 40 % idle
  // (250 s here; two at a time, 180 s).
  maxWorkers: 2,
};
