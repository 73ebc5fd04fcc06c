/**
 * The library API: a Sandbox owns a SessionManager (the one owner of sessions, as in the server) and hands out
 * session handles. A thin layer like the tools: the same manager calls, the same checks (code length, timeouts,
 * workspace paths) and the same execution reply as execute_code's structured content.
 */
import type { RuntimeKind } from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import { chooseDistribution, distributionLog } from '../python/distribution.js';
import { packageVersion } from '../paths.js';
import { sessionPath, sessionUri } from '../sessions/host-paths.js';
import type { Config } from '../server/config.js';
import { reportProgress, shapeExecution, type ExecutionResult } from '../server/execution-reply.js';
import { createServer, type CreatedServer } from '../server/server.js';
import type { FileEntry, FileRef } from '../sessions/file-index.js';
import { checkCodeLength, timeoutFor } from '../sessions/input-checks.js';
import { SessionManager, type SessionSummary } from '../sessions/manager.js';
import { SessionScope } from '../sessions/scope.js';
import { configFromOptions, type SandboxOptions } from './options.js';

export type { ExecutionResult, FileEntry, FileRef, SessionSummary };

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
  /** Workspace-relative path, e.g. "figures/cell3_1.png" (cell 3, its first output). */
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
export const serveMcp = Symbol('serveMcp');

/**
 * Sandboxed Python sessions (Pyodide, each in a process or thread of its own), configured like the command.
 * Create one with {@link createSandbox}; close() it to free every worker.
 */
export class Sandbox {
  private readonly manager: SessionManager;
  private closed = false;

  /** @internal Use createSandbox(). */
  constructor(
    private readonly config: Config,
    private readonly log: (message: string) => void,
  ) {
    const distribution = chooseDistribution(config.runtime, config.preload, config.wheelDirs);
    for (const line of distributionLog(distribution, config.preload)) log(line);
    this.manager = new SessionManager(config, distribution, log);
  }

  /** Which distribution runs the sessions, and why. */
  get runtime(): Omit<SessionRuntime, 'python' | 'pyodide'> & { python: string; pyodide: string; packages: Record<string, string> } {
    const { facts, distribution } = this.manager;
    return {
      python: facts.python,
      pyodide: facts.pyodide,
      distribution: distribution.kind,
      reason: distribution.reason,
      packages: facts.packages,
    };
  }

  /** Starts a session (from the warm pool when one is ready); rejects with SESSION_LIMIT at `maxSessions`. */
  async createSession(): Promise<SandboxSession> {
    const { id } = await this.manager.create();
    return this.getSession(id);
  }

  /** A handle on a live session, e.g. one an MCP client created. Throws SESSION_NOT_FOUND (or why it is gone). */
  getSession(id: string): SandboxSession {
    const { runtime } = this.manager.describe(id);
    return new SandboxSession(
      id,
      this.manager,
      this.config,
      {
        python: runtime.python,
        pyodide: runtime.pyodide,
        distribution: runtime.kind,
        reason: this.manager.distribution.reason,
      },
      runtime.packages,
    );
  }

  /** Every live session, as the list_sessions tool reports them. */
  listSessions(): SessionSummary[] {
    return this.manager.list();
  }

  /** Terminates every session and the warm pool; the process can then exit. Later calls fail. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.manager.closeAll();
  }

  /** An MCP server over this sandbox's sessions, scoped to the sessions its client creates. */
  [serveMcp](): CreatedServer {
    const sessions = new SessionScope(this.manager);
    return createServer({ config: this.config, version: packageVersion(), log: this.log, sessions });
  }
}

/**
 * A handle on one session. Calls on one session run in order; other sessions run in parallel. After close() (of
 * the session or of its sandbox) every call throws a PyodideMcpError with code SESSION_NOT_FOUND.
 */
export class SandboxSession {
  private closed = false;

  /** @internal Use sandbox.createSession() or sandbox.getSession(). */
  constructor(
    /** The session id (192 random bits, base64url, after `<instanceId>.` with that option), the same id MCP tools take as session_id. */
    readonly id: string,
    private readonly manager: SessionManager,
    private readonly config: Config,
    /** Which Python runs the session. */
    readonly runtime: SessionRuntime,
    /** Preloaded packages and their versions. */
    readonly packages: Record<string, string>,
  ) {}

  /** When the session expires if unused (each call pushes it back by `sessionTtlSeconds`). */
  get expiresAt(): Date {
    return new Date(this.manager.describe(this.live()).summary.expires_at);
  }

  /**
   * Runs Python code like a notebook cell: variables persist; `result` is the repr of the last expression. A Python
   * exception, a timeout or an abort resolves with `success: false` and `error` set (the session survives); a
   * session that had to be ended resolves with error type "WorkerTerminated" and later calls throw SESSION_DEAD.
   */
  async execute(code: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    if (typeof code !== 'string') throw new PyodideMcpError('INVALID_INPUT', 'code must be a string.');
    checkCodeLength(this.config, code);
    return this.run({ code }, options);
  }

  /** Runs a .py file of the workspace in the session's namespace (like `%run -i`); same result as execute(). */
  async runFile(path: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const rel = sessionPath(path);
    (await this.manager.filesOf(this.live())).sizeOf(rel);
    return this.run({ path: rel }, options);
  }

  /** Writes a file (parent directories created). Refuses to replace one unless `overwrite`; `append` adds to it. */
  async writeFile(path: string, content: string | Uint8Array, options: { append?: boolean; overwrite?: boolean } = {}): Promise<FileRef> {
    const rel = sessionPath(path);
    if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; give a file name.');
    const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    if (!(data instanceof Uint8Array)) throw new PyodideMcpError('INVALID_INPUT', 'content must be a string or a Uint8Array.');
    return this.manager.writeFile(this.live(), rel, data, { append: options.append ?? false, overwrite: options.overwrite ?? false });
  }

  /** Reads a whole file: bytes, or text with `'utf8'`. Answers from the session's copy even while code runs. */
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  async readFile(path: string, encoding?: 'utf8'): Promise<Uint8Array | string> {
    const { data } = await this.manager.readFile(this.live(), sessionPath(path));
    return encoding === 'utf8' ? new TextDecoder().decode(data) : data;
  }

  /** Lists the workspace (or a directory of it), recursively unless `recursive: false`. */
  async listFiles(path = '', options: { recursive?: boolean } = {}): Promise<(FileEntry & { uri: string })[]> {
    const id = this.live();
    return (await this.manager.filesOf(id))
      .list(sessionPath(path), options.recursive ?? true)
      .map((entry) => ({ ...entry, uri: sessionUri(id, entry.path) }));
  }

  /** Deletes a file or an empty directory. */
  async deleteFile(path: string): Promise<void> {
    const rel = sessionPath(path);
    if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself.');
    await this.manager.deleteFile(this.live(), rel);
  }

  /** Packages loaded in the session, and those it could import offline. */
  listPackages(): Promise<{ loaded: Record<string, string>; available: string[] }> {
    return this.manager.listPackages(this.live());
  }

  /** Terminates the session and frees its memory and files. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.manager.close(this.id).catch((error: unknown) => {
      // Already gone (expired, dead, the sandbox closed): closing it is done.
      if (!(error instanceof PyodideMcpError)) throw error;
    });
  }

  private async run(source: { code: string } | { path: string }, options: ExecuteOptions): Promise<ExecutionResult> {
    const id = this.live();
    if (options.timeoutSeconds !== undefined && !(typeof options.timeoutSeconds === 'number' && options.timeoutSeconds > 0)) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `timeoutSeconds must be a positive number, not ${JSON.stringify(options.timeoutSeconds)}.`,
      );
    }
    const timeoutMs = timeoutFor(this.config, options.timeoutSeconds);
    const { onProgress, onFigure } = options;
    const stop = onProgress
      ? reportProgress((elapsedSeconds) => onProgress({ elapsedSeconds, timeoutSeconds: timeoutMs / 1000 }))
      : () => {};
    try {
      const execution = await this.manager.execute(id, source, timeoutMs, options.signal);
      const reply = shapeExecution(id, execution, timeoutMs);
      if (onFigure && !execution.terminated) {
        for (const item of reply.display) {
          if (!item.path || !item.mime_type.startsWith('image/')) continue;
          const { data } = await this.manager.readFile(id, item.path);
          onFigure({ path: item.path, mimeType: item.mime_type, data });
        }
      }
      return reply;
    } finally {
      stop();
    }
  }

  /** The id, if this handle may still be used. */
  private live(): string {
    if (this.closed) throw new PyodideMcpError('SESSION_NOT_FOUND', `Session ${this.id} was closed.`);
    return this.id;
  }
}

/**
 * Creates a sandbox. Options are the command's flags in camelCase (docs/configuration.md), validated by the same rules:
 * a bad or unknown option throws a UsageError (a TypeError, code USAGE_ERROR) naming it. Sessions boot on demand (and `warmSessions` ahead).
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = configFromOptions(options);
  const log = options.log ?? ((message: string) => process.stderr.write(`[pyodide-mcp] ${message}\n`));
  return new Sandbox(config, log);
}
