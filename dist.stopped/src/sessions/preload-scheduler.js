/**
 * How long a session an agent just took is left alone before its preload starts, unless a cell needs the preload.
 * A preload step cannot be interrupted (loading numpy's files takes about a second), and the call that created the
 * session usually comes right after: measured, the first `print(6*7)` after start waited 1.2 s behind a step.
 */
const HELD_GRACE_MS = 1500;
export class PreloadScheduler {
    slots;
    booting;
    log;
    preloadSet;
    warmUpCells;
    entries = new Map();
    /** Waiting entries, first to start first. */
    queue = [];
    /** Sessions whose warm-up waits, first to start first. */
    warmUps = [];
    running = 0;
    closed = false;
    /**
     * @param slots preloads that may run at once (at least 1)
     * @param booting how many sessions are booting now; preloads wait while any is
     * @param log the server's log
     * @param preloadSet whether there is anything to preload (else each session goes straight to its warm-up)
     * @param warmUpCells cells each session's warm-up runs (0: none)
     */
    constructor(slots, booting, log, preloadSet = true, warmUpCells = 0) {
        this.slots = slots;
        this.booting = booting;
        this.log = log;
        this.preloadSet = preloadSet;
        this.warmUpCells = warmUpCells;
    }
    /** Queues a ready session's preload (`urgent`: an agent holds it, so it goes first). Idempotent. */
    add(channel, urgent = false) {
        if (this.entries.has(channel) || this.closed)
            return;
        let resolve;
        let reject;
        const done = new Promise((res, rej) => {
            resolve = res;
            reject = rej;
        });
        done.catch(() => { }); // failures are logged; a waiter that cares gets its own rejection
        const entry = {
            channel,
            state: 'waiting',
            urgent,
            notBefore: urgent ? this.graceEnd() : 0,
            done,
            resolve,
            reject,
        };
        this.entries.set(channel, entry);
        channel.onDeath((reason) => {
            this.entries.delete(channel);
            for (const queue of [this.queue, this.warmUps]) {
                const index = queue.indexOf(entry);
                if (index >= 0)
                    queue.splice(index, 1);
            }
            if (entry.state === 'waiting' || entry.state === 'running')
                entry.reject(reason);
        });
        if (!this.preloadSet) {
            entry.state = 'done';
            entry.resolve({});
            this.queueWarmUp(entry);
        }
        else if (urgent)
            this.queue.unshift(entry);
        else
            this.queue.push(entry);
        this.pump();
    }
    /** Called once per entry: when it is added without a preload, or when its preload is done. */
    queueWarmUp(entry) {
        if (this.warmUpCells === 0 || this.closed || !this.entries.has(entry.channel))
            return;
        this.warmUps.push(entry);
    }
    /** Moves a waiting session to the front (an agent took it from the warm pool). */
    prioritize(channel) {
        const entry = this.entries.get(channel);
        if (!entry)
            return;
        if (entry.state === 'waiting' && !entry.urgent)
            entry.notBefore = this.graceEnd();
        entry.urgent = true;
        const index = this.queue.indexOf(entry);
        if (index > 0)
            this.queue.unshift(...this.queue.splice(index, 1));
        this.pump();
    }
    /** True once the session has imported its preload set. */
    isDone(channel) {
        return this.entries.get(channel)?.state === 'done';
    }
    /** Resolves to {module: version} once the session has imported its preload set; rejects if it could not. */
    whenDone(channel) {
        const entry = this.entries.get(channel);
        if (!entry)
            return Promise.reject(new Error('this session has no preload scheduled'));
        // Someone waits for it: no grace.
        entry.notBefore = 0;
        this.pump();
        return entry.done;
    }
    /** The end of a held session's grace, with a pump scheduled for then. */
    graceEnd() {
        setTimeout(() => this.pump(), HELD_GRACE_MS + 1).unref();
        return Date.now() + HELD_GRACE_MS;
    }
    /** Starts what may start now; call whenever a boot ends. */
    pump() {
        // A held session's preload starts even while others boot: an agent may be waiting on it (SessionManager.execute).
        const eligible = (entry) => Date.now() >= entry.notBefore && (entry.urgent || this.booting() === 0);
        while (!this.closed && this.running < this.slots) {
            const index = this.queue.findIndex(eligible);
            if (index < 0) {
                // Warm-ups last: while nothing boots and no preload could start.
                if (this.warmUps.length === 0 || this.booting() > 0 || this.queue.length > 0)
                    return;
                this.startWarmUp(this.warmUps.shift());
                continue;
            }
            const [entry] = this.queue.splice(index, 1);
            entry.state = 'running';
            this.running++;
            const started = performance.now();
            void entry.channel
                .request({ type: 'preload' })
                .then((versions) => {
                entry.state = 'done';
                this.log(`preload imported in ${Math.round(performance.now() - started)} ms`);
                entry.resolve(versions);
                this.queueWarmUp(entry);
            }, (error) => {
                entry.state = 'failed';
                // The session stays usable: what is missing is imported on first use, like any offline package.
                if (!entry.channel.deadReason)
                    this.log(`preload failed (imported on first use instead): ${error.message}`);
                entry.reject(error);
            })
                .finally(() => {
                this.running--;
                this.pump();
            });
        }
    }
    startWarmUp(entry) {
        this.running++;
        const started = performance.now();
        void entry.channel
            .request({ type: 'warm_up', cells: this.warmUpCells })
            .then(({ cells }) => this.log(`warmed up: ${cells} cells in ${Math.round(performance.now() - started)} ms`), 
        // A failed warm-up costs nothing but speed; the session's death, if that is why, is reported by its channel.
        () => { })
            .finally(() => {
            this.running--;
            this.pump();
        });
    }
    /** Starts nothing more (shutdown). */
    close() {
        this.closed = true;
        this.queue.length = 0;
        this.warmUps.length = 0;
    }
}
