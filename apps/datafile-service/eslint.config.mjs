import root, { depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The component tests run the entity-service and the gateway definitions in-process beside it; production code may not.
    files: ['test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@pitwall/entity-service', '@pitwall/gateway'], depConstraints }],
    },
  },
];
