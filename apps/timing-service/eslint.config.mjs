import root, { depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The timing-service's component tests run the entity-service definition in-process (it owns the rows); production code may not.
    files: ['test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@pitwall/entity-service'], depConstraints }],
    },
  },
];
