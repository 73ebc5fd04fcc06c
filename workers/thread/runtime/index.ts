/** Picks the adapter for a distribution; the only place in the worker that names them. */
import type { RuntimeKind } from '../../../src/wire/contract.js';
import type { BootOptions, PythonRuntime } from './types.js';

export async function bootRuntime(kind: RuntimeKind, options: BootOptions): Promise<PythonRuntime> {
  if (kind === 'modern') return (await import('./modern.js')).bootModern(options);
  return (await import('./legacy.js')).bootLegacy(options);
}
