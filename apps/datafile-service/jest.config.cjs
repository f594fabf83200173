module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'datafile-service',
  rootDir: __dirname,
  // On 2 cores jest runs the 49 suites one after another in one process, where what each suite leaves (its modules,
  // its stacks' objects) stays on the heap: some 700 MB by the end, which every collection then goes over, and the
  // suites of large reads late in the run took several times what they take alone (the whole file as an Arrow file:
  // 15 s against 3 s). With a limit jest runs them in a worker process instead, replaced after any suite that leaves
  // its heap past it (the project took 200 and 215 s so, 222 and 325 s in one process, at loads of 6 to 9).
  workerIdleMemoryLimit: '400MB',
};
