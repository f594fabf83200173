import root, { SIMULATION_STANDIN, depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The simulation tests point the simulation-service's processes at the stand-in external system (apps/simulation-standin).
    files: ['test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [SIMULATION_STANDIN], depConstraints }],
    },
  },
];
