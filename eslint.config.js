import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'e2e/artifacts/**',
      // real application files kept byte for byte (the app corpus): read by import-app, not built
      'apps/server/src/cli/appcorpus/*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['scripts/**/*.mjs', '**/*.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // topology-core and the contract are pure: no UI, no I/O (CI enforces it through this rule and their tsconfig lib)
    files: ['packages/topology-core/**/*.ts', 'packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-*', 'react/*', '@xyflow/*', 'zustand', 'zustand/*'],
              message: 'topology-core has no UI',
            },
            {
              group: [
                'amqplib',
                'amqplib/*',
                'express',
                'node:*',
                'fs',
                'net',
                'http',
                'https',
                'child_process',
                'path',
                'os',
              ],
              message: 'topology-core does no I/O',
            },
          ],
        },
      ],
    },
  },
);
