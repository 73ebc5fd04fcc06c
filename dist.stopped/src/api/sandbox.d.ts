/**
 * The library API: a Sandbox owns a SessionManager (the one owner of sessions, as in the server) and hands out
 * session handles. A thin layer like the tools: the same manager calls, the same checks (code length, timeouts,
 * workspace paths) and the same execution reply as execute_code's structured content.
 */
import type { RuntimeKind } from '../contract.js';
import type { Config } from '../server/config.js';
import { type ExecutionReply } from '../server/execution-reply.js';
import { type CreatedServer } from '../server/server.js';
import type { FileEntry, FileRef } from '../sessions/file-index.js';
import { SessionManager, type SessionSummary } from '../sessions/manager.js';
import { type SandboxOptions } from './options.js';
export type { ExecutionReply as ExecutionResult, FileEntry, FileRef, SessionSummary };
/** Which Python runs a session, and why the sandbox chose that distribution. */
export interface SessionRuntime {
    /** Python version, e.g. "3.14.2". */
    python: string;
    /** Pyodide version, e.g. "314.0.7". */
    pyodide: string;
    /** The bundled distribution: "modern" (official pyodide) or "legacy" (the offline scientific 0.17.1). */
    distribution: RuntimeKind;
    /** Why the sandbox runs this distribution. */
    reason: string;
}
/** A figure a cell showed, with its bytes (as saved in the session's workspace). */
export interface Figure {
    /** Workspace-relative path, e.g. "figures/figure_1.png". */
    path: string;
    /** e.g. "image/png" or "image/svg+xml". */
    mimeType: string;
    data: Uint8Array;
}
/** Progress of a running cell, reported about once a second. */
export interface Progress {
    elapsedSeconds: number;
    timeoutSeconds: number;
}
/** Options of {@link SandboxSession.execute} and {@link SandboxSession.runFile}. */
export interface ExecuteOptions {
    /** Time limit in seconds; default the sandbox's `timeoutSeconds`, at most its `maxTimeoutSeconds`. */
    timeoutSeconds?: number;
    /** Aborting interrupts the cell (the result's error is a CancelledError); the session keeps its variables. */
    signal?: AbortSignal;
    /** Called about once a second while the cell runs. */
    onProgress?: (progress: Progress) => void;
    /** Called once per figure the cell showed, before execute() resolves. */
    onFigure?: (figure: Figure) => void;
}
/** Reached by createMcpServer() only: not exported by the package. */
export declare const serveMcp: unique symbol;
/**
 * Sandboxed Python sessions (Pyodide, each in a process or thread of its own), configured like the command.
 * Create one with {@link createSandbox}; close() it to free every worker.
 */
export declare class Sandbox {
    private readonly config;
    private readonly log;
    private readonly manager;
    private closed;
    /** @internal Use createSandbox(). */
    constructor(config: Config, log: (message: string) => void);
    /** Which distribution runs the sessions, and why. */
    get runtime(): Omit<SessionRuntime, 'python' | 'pyodide'> & {
        python: string;
        pyodide: string;
        packages: Record<string, string>;
    };
    /** Starts a session (from the warm pool when one is ready); rejects with SESSION_LIMIT at `maxSessions`. */
    createSession(): Promise<SandboxSession>;
    /** A handle on a live session, e.g. one an MCP client created. Throws SESSION_NOT_FOUND (or why it is gone). */
    getSession(id: string): SandboxSession;
    /** Every live session, as the list_sessions tool reports them. */
    listSessions(): SessionSummary[];
    /** Terminates every session and the warm pool; the process can then exit. Later calls fail. Idempotent. */
    close(): Promise<void>;
    /** An MCP server over this sandbox's sessions, scoped to the sessions its client creates. */
    [serveMcp](): CreatedServer;
}
/**
 * A handle on one session. Calls on one session run in order; other sessions run in parallel. After close() (of
 * the session or of its sandbox) every call throws a PyodideMcpError with code SESSION_NOT_FOUND.
 */
export declare class SandboxSession {
    /** The session id (192 random bits, base64url), the same id MCP tools take as session_id. */
    readonly id: string;
    private readonly manager;
    private readonly config;
    /** Which Python runs the session. */
    readonly runtime: SessionRuntime;
    /** Preloaded packages and their versions. */
    readonly packages: Record<string, string>;
    private closed;
    /** @internal Use sandbox.createSession() or sandbox.getSession(). */
    constructor(
    /** The session id (192 random bits, base64url), the same id MCP tools take as session_id. */
    id: string, manager: SessionManager, config: Config, 
    /** Which Python runs the session. */
    runtime: SessionRuntime, 
    /** Preloaded packages and their versions. */
    packages: Record<string, string>);
    /** When the session expires if unused (each call pushes it back by `sessionTtlSeconds`). */
    get expiresAt(): Date;
    /**
     * Runs Python code like a notebook cell: variables persist; `result` is the repr of the last expression. A Python
     * exception, a timeout or an abort resolves with `success: false` and `error` set (the session survives); a
     * session that had to be ended resolves with error type "WorkerTerminated" and later calls throw SESSION_DEAD.
     */
    execute(code: string, options?: ExecuteOptions): Promise<ExecutionReply>;
    /** Runs a .py file of the workspace in the session's namespace (like `%run -i`); same result as execute(). */
    runFile(path: string, options?: ExecuteOptions): Promise<ExecutionReply>;
    /** Writes a file (parent directories created). Refuses to replace one unless `overwrite`; `append` adds to it. */
    writeFile(path: string, content: string | Uint8Array, options?: {
        append?: boolean;
        overwrite?: boolean;
    }): Promise<FileRef>;
    /** Reads a whole file: bytes, or text with `'utf8'`. Answers from the session's copy even while code runs. */
    readFile(path: string): Promise<Uint8Array>;
    readFile(path: string, encoding: 'utf8'): Promise<string>;
    /** Lists the workspace (or a directory of it), recursively unless `recursive: false`. */
    listFiles(path?: string, options?: {
        recursive?: boolean;
    }): Promise<(FileEntry & {
        uri: string;
    })[]>;
    /** Deletes a file or an empty directory. */
    deleteFile(path: string): Promise<void>;
    /** Packages loaded in the session, and those it could import offline. */
    listPackages(): Promise<{
        loaded: Record<string, string>;
        available: string[];
    }>;
    /** Terminates the session and frees its memory and files. Idempotent. */
    close(): Promise<void>;
    private run;
    /** The id, if this handle may still be used. */
    private live;
}
/**
 * Creates a sandbox. Options are the command's flags in camelCase (README "Flags"), validated by the same rules:
 * a bad or unknown option throws a TypeError naming it. Sessions boot on demand (and `warmSessions` ahead).
 */
export declare function createSandbox(options?: SandboxOptions): Promise<Sandbox>;
