/**
 * The server's side of one session: spawns it (src/sessions/spawn.ts), waits for its ready handshake, sends typed
 * requests and checks every reply against the contract (`request<Op>()` resolves to that op's reply type), runs
 * the timeout → interrupt → terminate sequence, and watches the session's memory. Only the session manager and
 * the warm pool create these.
 *
 * Security: whatever arrives from a session is untrusted. A message outside the contract, a reply that does not
 * match its request, a broken frame or memory above the limit ends THAT session (`onDeath` with the reason);
 * nothing a session sends can raise an error in the server.
 */
import { REPLIES, sessionMessageSchema, } from '../contract.js';
import { isErrorCode, PyodideMcpError } from '../errors.js';
import { spawnSession } from './spawn.js';
/** How often an unanswered interrupt is raised again (see execute()). */
const RESIGNAL_EVERY_MS = 100;
export class SessionChannel {
    options;
    ready;
    /** True once `ready` has resolved. */
    isReady = false;
    /** Set once the session is gone (terminated, crashed, broke the contract); every later call fails with it. */
    deadReason = null;
    endpoint;
    pending = new Map();
    deathListeners = [];
    stopWatching;
    nextId = 1;
    constructor(options) {
        this.options = options;
        this.endpoint = spawnSession(options);
        const pid = this.endpoint.pid;
        this.stopWatching =
            pid === null
                ? () => { }
                : options.watchdog.watch({
                    pid,
                    limitBytes: options.maxSessionMemoryMb * 2 ** 20,
                    onExceed: (rss) => this.kill(`it used ${Math.round(rss / 2 ** 20)} MB of memory, above the limit of ${options.maxSessionMemoryMb} MB per session (--max-session-memory-mb)`),
                });
        this.ready = new Promise((resolve, reject) => {
            this.onDeath(reject);
            this.endpoint.onMessage((raw) => {
                if (this.deadReason)
                    return;
                // Security: parse, never trust. Anything outside the contract ends the session.
                const parsed = sessionMessageSchema.safeParse(raw);
                if (!parsed.success)
                    return this.kill(`sent a message outside the protocol (${parsed.error.issues[0]?.message})`);
                const message = parsed.data;
                switch (message.type) {
                    case 'ready':
                        this.isReady = true;
                        return resolve(message.info);
                    case 'boot_failed':
                        return this.die(new PyodideMcpError('BOOT_FAILED', `The Python runtime failed to start: ${message.error.message}`));
                    case 'log':
                        return options.log(message.message);
                    case 'snapshot':
                        if (options.init.makeSnapshot)
                            options.onSnapshot?.(message.data);
                        return;
                    case 'fatal':
                        return this.kill(message.reason.replace(/^The session /, '').replace(/\.$/, ''));
                    case 'reply':
                        return this.settle(message);
                }
            });
            this.endpoint.onExit((description) => this.die(new PyodideMcpError('WORKER_CRASHED', `The session's worker exited unexpectedly (${description}).`)));
        });
        // A boot failure is reported through `ready`; this keeps an unobserved rejection from crashing us.
        this.ready.catch(() => { });
    }
    /** Called once when the session is gone, with the reason later calls are given. */
    onDeath(listener) {
        if (this.deadReason)
            listener(this.deadReason);
        else
            this.deathListeners.push(listener);
    }
    /** Sends a request; resolves to the reply the contract defines for its op. */
    request(body) {
        if (this.deadReason)
            return Promise.reject(this.deadReason);
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.pending.set(id, { op: body.type, resolve: resolve, reject });
            this.endpoint.send({ ...body, id });
        });
    }
    /**
     * Runs a cell. On timeout or abort, Python is interrupted; if it does not stop within the grace period the
     * session is terminated and the promise rejects.
     */
    async execute(options) {
        const { source, limits } = options;
        const { value: outcome, interrupted } = await this.withDeadline(options, () => 'code' in source
            ? this.request({ type: 'execute', code: source.code, limits })
            : 'path' in source
                ? this.request({ type: 'run_file', path: source.path, limits })
                : this.request({ type: 'call_function', call: source.call, limits }));
        return { outcome, interrupted };
    }
    /**
     * Sends a request that runs user code outside a cell (a namespace op: a __repr__ or a property may loop) under the
     * same deadline as a cell. Interrupted, it rejects with EXEC_TIMEOUT / EXEC_CANCELLED and the session is intact.
     */
    async requestWithin(body, options) {
        let interrupted = null;
        try {
            const result = await this.withDeadline(options, () => this.request(body));
            interrupted = result.interrupted;
            return result.value;
        }
        catch (error) {
            interrupted ??= this.lastInterrupt;
            if (interrupted && !this.deadReason) {
                throw new PyodideMcpError(interrupted === 'timeout' ? 'EXEC_TIMEOUT' : 'EXEC_CANCELLED', interrupted === 'timeout'
                    ? `${body.type} exceeded the ${options.timeoutMs / 1000} s time limit (user code such as a __repr__ or a property ran too long) and was interrupted. The session and its variables are intact.`
                    : `${body.type} was cancelled by the client. The session and its variables are intact.`);
            }
            throw error;
        }
    }
    /** Why the last deadline-bound request was interrupted (for requestWithin's error). */
    lastInterrupt = null;
    /** Runs `send` with the timeout → interrupt → terminate sequence (see execute()). */
    async withDeadline(options, send) {
        let interrupted = null;
        this.lastInterrupt = null;
        let graceTimer;
        let resignal;
        const interrupt = (reason) => {
            if (interrupted || this.deadReason)
                return;
            interrupted = this.lastInterrupt = reason;
            this.endpoint.interrupt();
            // Why repeat it: Pyodide consumes the signal with a plain read-then-zero of the buffer, so a store that
            // lands between those two steps is lost (measured: about one interrupt in 25 on a tight loop). Until
            // the reply comes, the signal is raised again; the grace period still bounds the whole wait.
            resignal = setInterval(() => this.endpoint.interrupt(), RESIGNAL_EVERY_MS);
            resignal.unref();
            graceTimer = setTimeout(() => {
                const what = reason === 'timeout' ? `exceeded its ${options.timeoutMs / 1000} s time limit` : 'was cancelled';
                void this.terminate(new PyodideMcpError(reason === 'timeout' ? 'EXEC_TIMEOUT' : 'EXEC_CANCELLED', `The code ${what} and did not respond to an interrupt within ${this.options.interruptGraceMs} ms, so its worker was terminated. The session's state is lost.`));
            }, this.options.interruptGraceMs);
            graceTimer.unref();
        };
        const deadline = setTimeout(() => interrupt('timeout'), options.timeoutMs);
        deadline.unref();
        const onAbort = () => interrupt('cancelled');
        options.signal?.addEventListener('abort', onAbort, { once: true });
        if (options.signal?.aborted)
            onAbort();
        try {
            const value = await send();
            return { value, interrupted };
        }
        finally {
            clearTimeout(deadline);
            clearTimeout(graceTimer);
            clearInterval(resignal);
            options.signal?.removeEventListener('abort', onAbort);
        }
    }
    /** Ends the session because it broke a rule (`why` completes "The session …"). */
    kill(why) {
        void this.terminate(new PyodideMcpError('WORKER_CRASHED', `The session ${why}; it was ended.`));
    }
    /** Stops the session; pending requests reject with `reason`. Safe to call more than once. */
    async terminate(reason = new PyodideMcpError('SESSION_NOT_FOUND', 'The session was closed.')) {
        this.die(reason);
        await this.endpoint.terminate();
    }
    settle(message) {
        const waiter = this.pending.get(message.id);
        if (!waiter)
            return this.kill(`answered a request it was never sent (id ${message.id})`);
        this.pending.delete(message.id);
        if (!message.ok) {
            // The worker reports its interpreter gone (or its workspace tampered with): the session is over, whatever the op.
            if (message.error.code === 'WORKER_CRASHED') {
                void this.terminate(wireToError(message.error));
                return waiter.reject(this.deadReason);
            }
            return waiter.reject(wireToError(message.error));
        }
        const value = REPLIES[waiter.op].safeParse(message.value);
        if (!value.success) {
            const issue = value.error.issues[0];
            this.kill(`sent an invalid ${waiter.op} reply (${issue?.path.join('.')}: ${issue?.message})`);
            return waiter.reject(this.deadReason);
        }
        waiter.resolve(value.data);
    }
    die(reason) {
        if (this.deadReason)
            return;
        this.deadReason = reason;
        this.stopWatching();
        for (const waiter of this.pending.values())
            waiter.reject(reason);
        this.pending.clear();
        for (const listener of this.deathListeners.splice(0))
            listener(reason);
        void this.endpoint.terminate();
    }
}
function wireToError(error) {
    return new PyodideMcpError(isErrorCode(error.code) ? error.code : 'WORKER_ERROR', error.message);
}
