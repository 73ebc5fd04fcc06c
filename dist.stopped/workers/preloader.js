/**
 * The preload set (numpy, pandas, …) imported in the background, after the session is ready for code.
 *
 * Why: a legacy scientific session took 11–14 s to boot, of which the bare interpreter was 1.5–2 s; the rest was
 * loading the packages' files (about 2.8 s) and importing them (numpy 0.8, pandas 1.3, matplotlib with its warm-up
 * figure 1.5, sympy 3.2 s), measured one session alone on this 2-core machine. A session is now handed out once the
 * interpreter is up, and the server sends `preload` when it has a core to spare; `print(1)` never waits for pandas.
 *
 * The worker runs one thing at a time (SerialWork): the preload is cut into steps (load one package's files, import
 * one module), and a request that arrives meanwhile runs after the current step, before the next. A cell that
 * imports a preloaded package before its step came loads it itself (session.worker.ts, loadImportedPackages).
 */
/** Runs tasks one after another, in arrival order; a failure does not stop the queue. */
export class SerialWork {
    tail = Promise.resolve();
    queued = 0;
    /** Tasks queued or running. */
    get pending() {
        return this.queued;
    }
    run(task) {
        this.queued++;
        const run = async () => {
            try {
                return await task();
            }
            finally {
                this.queued--;
            }
        };
        const result = this.tail.then(run, run);
        this.tail = result.catch(() => { });
        return result;
    }
}
/**
 * Loads, then imports, each of `names`, one step at a time through `work`; between steps, the event loop turns once
 * (`yieldNow`, the real setImmediate captured before the lockdown) so that a request that arrived during a step is
 * queued before the next one. Resolves to {module: version}; rejects at the first step that fails (the rest are then
 * imported on first use, like any offline package).
 */
export async function preload(names, steps, work, yieldNow) {
    const versions = {};
    for (const name of names) {
        await yieldNow();
        await work.run(() => steps.load(name));
    }
    for (const name of names) {
        await yieldNow();
        Object.assign(versions, await work.run(() => steps.importModule(name)));
    }
    return versions;
}
