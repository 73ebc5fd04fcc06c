/**
 * Module customization hooks (node:module `register`) for ONE session worker: the import firewall.
 *
 * Registered by workers/sandbox/lockdown.ts before Pyodide boots. Until the worker latches it, every import
 * resolves normally (Pyodide's loader imports node:fs, node:vm, ws ... while booting). Once latched, EVERY
 * `import()` in that worker thread is refused, whatever the specifier (`node:fs`, `data:` URLs, files) and whoever
 * asks (Function-constructed code, Pyodide's own `loadScript` or socket shim). The latch is one-way: there is no
 * message that unlatches it, so user code that somehow reached this module could not undo it.
 *
 * Measured on Node 20.20: hooks registered inside a worker apply to that worker only (other workers and the main
 * thread are unaffected), and `resolve` runs for every dynamic import, also of modules already in the cache.
 * The hooks run on their own internal thread; nothing in the worker realm references it.
 *
 * Where Node has `module.registerHooks` (22.15+, measured on 22.23 and 24.21) the same check runs in-thread instead
 * (`resolveSync`): no hooks thread, so the worker needs no `--allow-worker`, and it also sees require().
 */
/** The specifier the worker imports to latch the firewall. */
export const LATCH_SPECIFIER = 'pyodide-mcp-sandbox:latch';
/** Text every refusal carries, so the worker (and tests) can tell a firewall refusal from other failures. */
export const REFUSAL = 'import() is disabled in the pyodide-mcp sandbox';
let latched = false;
function check(specifier) {
    if (specifier === LATCH_SPECIFIER) {
        latched = true;
        throw new Error(`${REFUSAL} (latched)`);
    }
    if (latched)
        throw new Error(`${REFUSAL}: ${JSON.stringify(String(specifier)).slice(0, 200)}`);
}
export async function resolve(specifier, context, nextResolve) {
    check(specifier);
    return nextResolve(specifier, context);
}
/** The same hook for `module.registerHooks` (synchronous, runs in the worker's own thread). */
export function resolveSync(specifier, context, nextResolve) {
    check(specifier);
    return nextResolve(specifier, context);
}
