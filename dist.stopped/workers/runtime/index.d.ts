/** Picks the adapter for a distribution; the only place in the worker that names them. */
import type { RuntimeKind } from '../../src/contract.js';
import type { BootOptions, PythonRuntime } from './types.js';
export declare function bootRuntime(kind: RuntimeKind, options: BootOptions): Promise<PythonRuntime>;
