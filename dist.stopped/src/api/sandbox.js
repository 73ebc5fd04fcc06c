import { PyodideMcpError } from '../errors.js';
import { chooseDistribution } from '../python/distribution.js';
import { packageVersion } from '../paths.js';
import { sessionPath, sessionUri } from '../sandbox/host-paths.js';
import { checkCodeLength, reportProgress, shapeExecution, timeoutFor } from '../server/execution-reply.js';
import { createServer } from '../server/server.js';
import { SessionManager } from '../sessions/manager.js';
import { SessionScope } from '../sessions/scope.js';
import { configFromOptions } from './options.js';
/** Reached by createMcpServer() only: not exported by the package. */
export const serveMcp = Symbol('serveMcp');
/**
 * Sandboxed Python sessions (Pyodide, each in a process or thread of its own), configured like the command.
 * Create one with {@link createSandbox}; close() it to free every worker.
 */
export class Sandbox {
    config;
    log;
    manager;
    closed = false;
    /** @internal Use createSandbox(). */
    constructor(config, log) {
        this.config = config;
        this.log = log;
        const distribution = chooseDistribution(config.runtime, config.preload, config.wheelDirs);
        log(`distribution: ${distribution.kind} (${distribution.reason}); preload: ${config.preload.join(', ') || 'none'}`);
        this.manager = new SessionManager(config, distribution, log);
    }
    /** Which distribution runs the sessions, and why. */
    get runtime() {
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
    async createSession() {
        const { id } = await this.manager.create();
        return this.getSession(id);
    }
    /** A handle on a live session, e.g. one an MCP client created. Throws SESSION_NOT_FOUND (or why it is gone). */
    getSession(id) {
        const { runtime } = this.manager.describe(id);
        return new SandboxSession(id, this.manager, this.config, {
            python: runtime.python,
            pyodide: runtime.pyodide,
            distribution: runtime.kind,
            reason: this.manager.distribution.reason,
        }, runtime.packages);
    }
    /** Every live session, as the list_sessions tool reports them. */
    listSessions() {
        return this.manager.list();
    }
    /** Terminates every session and the warm pool; the process can then exit. Later calls fail. Idempotent. */
    async close() {
        if (this.closed)
            return;
        this.closed = true;
        await this.manager.closeAll();
    }
    /** An MCP server over this sandbox's sessions, scoped to the sessions its client creates. */
    [serveMcp]() {
        const sessions = new SessionScope(this.manager);
        return createServer({ config: this.config, version: packageVersion(), log: this.log, sessions });
    }
}
/**
 * A handle on one session. Calls on one session run in order; other sessions run in parallel. After close() (of
 * the session or of its sandbox) every call throws a PyodideMcpError with code SESSION_NOT_FOUND.
 */
export class SandboxSession {
    id;
    manager;
    config;
    runtime;
    packages;
    closed = false;
    /** @internal Use sandbox.createSession() or sandbox.getSession(). */
    constructor(
    /** The session id (192 random bits, base64url), the same id MCP tools take as session_id. */
    id, manager, config, 
    /** Which Python runs the session. */
    runtime, 
    /** Preloaded packages and their versions. */
    packages) {
        this.id = id;
        this.manager = manager;
        this.config = config;
        this.runtime = runtime;
        this.packages = packages;
    }
    /** When the session expires if unused (each call pushes it back by `sessionTtlSeconds`). */
    get expiresAt() {
        return new Date(this.manager.describe(this.live()).summary.expires_at);
    }
    /**
     * Runs Python code like a notebook cell: variables persist; `result` is the repr of the last expression. A Python
     * exception, a timeout or an abort resolves with `success: false` and `error` set (the session survives); a
     * session that had to be ended resolves with error type "WorkerTerminated" and later calls throw SESSION_DEAD.
     */
    async execute(code, options = {}) {
        if (typeof code !== 'string')
            throw new PyodideMcpError('INVALID_INPUT', 'code must be a string.');
        checkCodeLength(this.config, code);
        return this.run({ code }, options);
    }
    /** Runs a .py file of the workspace in the session's namespace (like `%run -i`); same result as execute(). */
    async runFile(path, options = {}) {
        const rel = sessionPath(path);
        this.manager.filesOf(this.live()).sizeOf(rel);
        return this.run({ path: rel }, options);
    }
    /** Writes a file (parent directories created). Refuses to replace one unless `overwrite`; `append` adds to it. */
    async writeFile(path, content, options = {}) {
        const rel = sessionPath(path);
        if (rel === '')
            throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; give a file name.');
        const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
        if (!(data instanceof Uint8Array))
            throw new PyodideMcpError('INVALID_INPUT', 'content must be a string or a Uint8Array.');
        return this.manager.writeFile(this.live(), rel, data, { append: options.append ?? false, overwrite: options.overwrite ?? false });
    }
    async readFile(path, encoding) {
        const { data } = await this.manager.readFile(this.live(), sessionPath(path));
        return encoding === 'utf8' ? new TextDecoder().decode(data) : data;
    }
    /** Lists the workspace (or a directory of it), recursively unless `recursive: false`. */
    async listFiles(path = '', options = {}) {
        const id = this.live();
        return this.manager
            .filesOf(id)
            .list(sessionPath(path), options.recursive ?? true)
            .map((entry) => ({ ...entry, uri: sessionUri(id, entry.path) }));
    }
    /** Deletes a file or an empty directory. */
    async deleteFile(path) {
        const rel = sessionPath(path);
        if (rel === '')
            throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself.');
        await this.manager.deleteFile(this.live(), rel);
    }
    /** Packages loaded in the session, and those it could import offline. */
    listPackages() {
        return this.manager.listPackages(this.live());
    }
    /** Terminates the session and frees its memory and files. Idempotent. */
    async close() {
        if (this.closed)
            return;
        this.closed = true;
        await this.manager.close(this.id).catch((error) => {
            // Already gone (expired, dead, the sandbox closed): closing it is done.
            if (!(error instanceof PyodideMcpError))
                throw error;
        });
    }
    async run(source, options) {
        const id = this.live();
        if (options.timeoutSeconds !== undefined && !(typeof options.timeoutSeconds === 'number' && options.timeoutSeconds > 0)) {
            throw new PyodideMcpError('INVALID_INPUT', `timeoutSeconds must be a positive number, not ${JSON.stringify(options.timeoutSeconds)}.`);
        }
        const timeoutMs = timeoutFor(this.config, options.timeoutSeconds);
        const { onProgress, onFigure } = options;
        const stop = onProgress
            ? reportProgress((elapsedSeconds) => onProgress({ elapsedSeconds, timeoutSeconds: timeoutMs / 1000 }))
            : () => { };
        try {
            const execution = await this.manager.execute(id, source, timeoutMs, options.signal);
            const reply = shapeExecution(id, execution, timeoutMs);
            if (onFigure && !execution.terminated) {
                for (const item of reply.display) {
                    if (!item.path || !item.mime_type.startsWith('image/'))
                        continue;
                    const { data } = await this.manager.readFile(id, item.path);
                    onFigure({ path: item.path, mimeType: item.mime_type, data });
                }
            }
            return reply;
        }
        finally {
            stop();
        }
    }
    /** The id, if this handle may still be used. */
    live() {
        if (this.closed)
            throw new PyodideMcpError('SESSION_NOT_FOUND', `Session ${this.id} was closed.`);
        return this.id;
    }
}
/**
 * Creates a sandbox. Options are the command's flags in camelCase (README "Flags"), validated by the same rules:
 * a bad or unknown option throws a TypeError naming it. Sessions boot on demand (and `warmSessions` ahead).
 */
export async function createSandbox(options = {}) {
    const config = configFromOptions(options);
    const log = options.log ?? ((message) => process.stderr.write(`[pyodide-mcp] ${message}\n`));
    return new Sandbox(config, log);
}
