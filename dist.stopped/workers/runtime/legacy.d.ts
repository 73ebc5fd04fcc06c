import type { BootOptions, PythonRuntime } from './types.js';
export declare function bootLegacy(options: BootOptions): Promise<PythonRuntime>;
