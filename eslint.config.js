// ESLint flat config: the recommended JavaScript and typescript-eslint rules, plus what this server needs.
// The build and typescript-eslint share one TypeScript (6.0, the newest typescript-eslint supports).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'wheels/', 'bench/results/', 'scratch/', '.ci/']),
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
    // Tests read structuredContent loosely; Emscripten's FS and module objects are untyped JavaScript by nature.
    files: ['test/**', 'bench/**', 'workers/runtime/**', 'workers/workspace.ts', 'workers/sandbox/lockdown.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The cell scope wraps arbitrary built-ins (Promise.prototype.then, timers, PyProxy methods) whatever their
    // signature, and its wrappers need the wrapper object itself as well as their own `this`.
    files: ['workers/sandbox/cell-scope.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off', '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    // stdout carries the MCP protocol: server and worker code logs to stderr, never through console.
    files: ['src/**', 'workers/**'],
    rules: { 'no-console': 'error' },
  },
);
