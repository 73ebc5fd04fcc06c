import { type Harness } from '../helpers.js';
export interface Outcome {
    success: boolean;
    result: string | null;
    stdout: string;
    stderr: string;
    error: {
        type: string;
        message: string;
        traceback: string;
    } | null;
    session_id: string;
}
export interface ProbeServer {
    h: Harness;
    /** Runs code in a session and returns the execute_code outcome; throws if the tool call itself failed. */
    run(session: string, code: string, timeoutSeconds?: number): Promise<Outcome>;
    /** Runs code; returns the outcome, or the tool error text when the call failed as a tool error. */
    attempt(session: string, code: string, timeoutSeconds?: number): Promise<Outcome | {
        toolError: string;
    }>;
    newSession(): Promise<string>;
    /** The server answers, and a long-lived bystander session still computes and still has its state. */
    assertUnharmed(): Promise<void>;
    close(): Promise<void>;
}
export declare function startProbeServer(flags?: string[], env?: Record<string, string>): Promise<ProbeServer>;
/** Asserts a Python exception of exactly `type` whose message matches `message`. */
export declare function assertPythonError(outcome: Outcome, type: string, message: RegExp): void;
/** The error raised inside the JS realm when something tries to compile code from a string. */
export declare const EVAL_REFUSED: RegExp;
/** AttributeError message for a missing attribute on a JsProxy (Pyodide 314 and 0.17 word it the same). */
export declare const missingAttribute: (name: string) => RegExp;
/** A temporary directory holding a secret file; removed by `dispose`. */
export declare function secretDir(): {
    dir: string;
    file: string;
    secret: string;
    dispose: () => void;
};
/** A minimal pure-Python wheel (stored zip) whose module `name` defines VALUE = value. */
export declare function writeWheel(dir: string, name: string, value: string): string;
/** A loopback HTTP server that counts the connections it sees: a probe that reaches it broke out of the sandbox. */
export declare function startLoopback(): Promise<{
    port: number;
    url: string;
    connections: () => number;
    reset: () => void;
    close: () => Promise<void>;
}>;
