import nx from '@nx/eslint-plugin';

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
          depConstraints: [
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
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
