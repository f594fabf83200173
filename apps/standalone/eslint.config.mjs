import root, { DEFINITIONS, depConstraints } from '../../eslint.config.mjs';

export default [
  ...root,
  {
    // The composition root imports exactly the service definitions (Nx forbids importing an app otherwise).
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: DEFINITIONS, depConstraints }],
    },
  },
  {
    // The embedded default runs the stand-in external simulation system (tools/) for the demo account.
    files: ['src/demo-simulation.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [...DEFINITIONS, '@pitwall/simulation-standin'], depConstraints }],
    },
  },
];
