import type { PythonRuntime } from '../runtime/types.js';
/** Text of every refusal by the sandbox (tests match on it). */
export declare const SANDBOX_REFUSAL = "disabled in the pyodide-mcp sandbox";
/**
 * Call once, first thing in the worker, BEFORE the runtime boots: installs the import firewall (ESM hooks) and the
 * CommonJS loader guard, both still open. Pyodide needs imports/require while it boots.
 */
export declare function prepareSandbox(): void;
/**
 * Stand-in for `Function` in the legacy (0.17.1) pyodide.asm.js, passed as a wrapper parameter named `Function`.
 * 0.17 makes callable PyProxy targets with `Reflect.construct(Function, [], cls)`, which needs code generation from
 * strings (off in session workers). This builds the same thing, an empty function whose prototype is
 * `cls.prototype`, without compiling a string. Called with a body (real code), it refuses like `Function` would.
 */
export declare const CallableTargetConstructor: FunctionConstructor;
export interface LockdownOptions {
    runtime: PythonRuntime;
    log: (message: string) => void;
}
export interface LockdownReport {
    removedGlobals: string[];
    permissionModel: 'active' | 'absent';
}
/**
 * Call once after the runtime, packages and harness are ready and BEFORE the first request is served. Throws (so
 * the worker reports boot_failed) if a layer could not be put in place: fail closed.
 */
export declare function lockdown({ runtime, log }: LockdownOptions): Promise<LockdownReport>;
/** Layer 1 seen from inside: active when the host started this worker with the permission flags. */
export declare function checkPermissionModel(): 'active' | 'absent';
/** Bounds on what the worker sends to the host. */
export interface PostLimits {
    /** Longest log message, in characters (longer ones are cut). */
    maxLogChars: number;
    /** Log messages per second on average, and the burst allowed above it; the rest is dropped and counted. */
    logsPerSecond: number;
    logBurst: number;
    /** Most characters of strings in one message; a reply above it is replaced by an error reply. */
    maxMessageChars: number;
}
export declare const DEFAULT_POST_LIMITS: PostLimits;
/**
 * Returns the worker's `post(message, transfer)`: `port.postMessage` bound now (before user code can touch
 * MessagePort.prototype; `port` is the parent port, or the router of workers/direct-channel.ts), with log messages
 * cut and rate-limited, and any message whose strings exceed `maxMessageChars` replaced by an error reply (a
 * tampered harness could otherwise hand the host a giant string).
 */
export declare function createGuardedPost<M extends {
    type: string;
}>(port: {
    postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
}, limits?: PostLimits): (message: M, transfer?: ArrayBuffer[]) => void;
