import type { BootOptions, PythonRuntime } from './types.js';
export declare function bootModern(options: BootOptions): Promise<PythonRuntime>;
