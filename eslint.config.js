// ESLint flat config: the recommended JavaScript and typescript-eslint rules, plus what this server needs.
// typescript-eslint runs on the TypeScript 6 API (the `typescript` devDependency is Microsoft's @typescript/typescript6,
// since typescript-eslint does not support TypeScript 7 yet); the build's `tsc` is TypeScript 7 (`@typescript/go`).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'wheels/', 'bench/results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // A dropped promise loses its rejection. Needs type information (about 15 s more on two cores).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's describe/it return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'suite', 'test'] }] },
      ],
    },
  },
  {
    // stdout carries the MCP protocol: server and worker code logs to stderr, never through console.
    files: ['src/**', 'workers/**'],
    rules: { 'no-console': 'error' },
  },
);
