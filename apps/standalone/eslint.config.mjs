import root, { DEFINITIONS, depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The composition root imports exactly the definitions: the services' and the stand-in external simulation
    // system's (Nx forbids importing an app otherwise).
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: DEFINITIONS, depConstraints }],
    },
  },
];
