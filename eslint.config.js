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
    files: ['test/**', 'bench/**', 'workers/thread/runtime/**', 'workers/thread/file-quota.ts', 'workers/thread/realm/host-helpers.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The cell scope's mechanisms wrap arbitrary built-ins (Promise.prototype.then, timers, PyProxy methods) whatever
    // their signature.
    files: ['workers/thread/realm/cell-*.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // The browser view's page and the MCP Apps' code (docs/view.md), and the loader a Plotly chart file ends with:
    // plain JavaScript that runs in the browser.
    files: ['view/**/*.js', 'workers/python/plotly_chart.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'fetch',
          'setInterval',
          'clearInterval',
          'setTimeout',
          'clearTimeout',
          'EventSource',
          'URL',
          'ResizeObserver',
          'DOMParser',
          'crypto',
          'TextEncoder',
          'TextDecoder',
          'atob',
          'btoa',
          'Plotly',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // stdout carries the MCP protocol: server and worker code logs to stderr, never through console.
    files: ['src/**', 'workers/**'],
    rules: { 'no-console': 'error' },
  },
  // Where code runs decides what it may import (docs/architecture.md). Each folder's README says why.
  {
    // The worker thread: its permission model reads only our own compiled code and the distribution, and nothing
    // may load before the lockdown captures the globals, so it shares only the dependency-free wire modules with the
    // host and knows the contract's types, never its zod schemas.
    files: ['workers/thread/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'The worker thread must not load zod: import types from src/wire/contract.js only.' }],
          patterns: [
            {
              group: ['**/src/wire/contract.js'],
              allowTypeImports: true,
              message: 'The worker thread imports only types from the contract (its schemas load zod).',
            },
            {
              group: ['**/src/*', '!**/src/wire', '**/src/*.js'],
              message: 'The worker thread may import only from src/wire/ (shared with the host).',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared by both sides of the session boundary: nothing here may depend on either side.
    files: ['src/wire/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../wire', '../../*'],
              message: 'src/wire/ depends on nothing outside it: both sides of the boundary import it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Only the contract's schemas need zod; the other wire modules are loaded by the worker thread.
    files: ['src/wire/**'],
    ignores: ['src/wire/contract.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'The worker thread loads this module: no zod here.' }],
          patterns: [
            {
              group: ['./contract.js'],
              allowTypeImports: true,
              message: 'Import only types from the contract here (its schemas load zod).',
            },
            {
              group: ['../*', '!../wire', '../../*'],
              message: 'src/wire/ depends on nothing outside it: both sides of the boundary import it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The session process (or, with --isolation thread, the server) supervising one worker: it must not pull in the
    // server's layers.
    files: ['src/supervisor/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../server/*', '../sessions/*', '../api/*', '../python/*', '../../workers/*'],
              message: 'The supervisor runs in the session process: it imports only src/wire/, src/paths.js and its own folder.',
            },
          ],
        },
      ],
    },
  },
);
