import nx from '@nx/eslint-plugin';

// The stand-in external simulation system (apps/simulation-standin): `npm start` runs it for the demo account, and tests
// and the simulations bench run it as the external system the simulation-service calls out to.
export const SIMULATION_STANDIN = '@pitwall/simulation-standin';

// Apps never import apps; the one exception is the composition root (apps/standalone, tag type:composition),
// which imports each service's definition, and the stand-in's, through these aliases (src/definition.ts of each app).
export const DEFINITIONS = ['@pitwall/entity-service', '@pitwall/timing-service', '@pitwall/simulation-service', '@pitwall/datafile-service', '@pitwall/gateway', SIMULATION_STANDIN];

export const depConstraints = [
  { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:app', 'type:contracts', 'type:data-access', 'type:util'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util', 'type:testing'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util', 'type:testing'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'], bannedExternalImports: ['pg', 'amqplib', 'ioredis', '@electric-sql/*'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:data-access', 'type:util', 'type:testing'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], bannedExternalImports: ['express', 'pg', 'amqplib', 'ioredis', 'pino', 'piscina', '@electric-sql/*'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
  { sourceTag: 'scope:entity', onlyDependOnLibsWithTags: ['scope:shared', 'scope:entity'] },
  { sourceTag: 'scope:timing', onlyDependOnLibsWithTags: ['scope:shared', 'scope:timing'] },
  { sourceTag: 'scope:simulation', onlyDependOnLibsWithTags: ['scope:shared', 'scope:simulation'] },
  { sourceTag: 'scope:datafile', onlyDependOnLibsWithTags: ['scope:shared', 'scope:datafile'] },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/data', 'tmp'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints,
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Nx forbids importing an app outright; the composition root may import exactly the service definitions.
    files: ['apps/standalone/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: DEFINITIONS, depConstraints }],
    },
  },
  {
    // The gateway's component tests run the entity-service definition in-process behind it.
    files: ['apps/gateway/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@pitwall/entity-service'], depConstraints }],
    },
  },
  {
    // The simulation-service's component tests run the entity-service definition beside it and the stand-in external system.
    files: ['apps/simulation-service/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@pitwall/entity-service', SIMULATION_STANDIN], depConstraints }],
    },
  },
  {
    // The e2e tests point the simulation-service's processes at the stand-in external system.
    files: ['apps/e2e/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [SIMULATION_STANDIN], depConstraints }],
    },
  },
];
