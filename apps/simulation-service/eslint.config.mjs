import root, { SIMULATION_STANDIN, depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The component tests run the entity-service definition in-process beside this one, and point the adapter at
    // the stand-in external system (apps/simulation-standin); production code may do neither.
    files: ['test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@pitwall/entity-service', SIMULATION_STANDIN], depConstraints }],
    },
  },
];
