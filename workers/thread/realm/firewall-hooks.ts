/**
 * The worker's side of the import firewall (a layer of the lockdown, lockdown.ts): registers the hooks of
 * import-firewall.ts before the runtime boots, and latches them at lockdown, checking that the latch holds.
 *
 * Why a module apart from import-firewall.ts: that one is also the module Node loads into its hooks thread (Node 20),
 * where nothing of the worker may come along; this one runs in the worker.
 */
import nodeModule, { register } from 'node:module';
import { LATCH_SPECIFIER, REFUSAL, resolveSync } from './import-firewall.js';

/** Whether this Node runs module hooks in-thread (`module.registerHooks`); not a named import: absent on Node 20. */
export function inThreadHooks(): boolean {
  return typeof (nodeModule as { registerHooks?: unknown }).registerHooks === 'function';
}

/** Registers the firewall's hooks, still open: Pyodide needs imports while it boots. */
export function registerImportFirewall(): void {
  // In-thread hooks where Node has them (22.15+), else the hooks thread of module.register (Node 20), which needs
  // --allow-worker; the host decides that flag by the same test (src/supervisor/worker-sandbox.ts).
  if (inThreadHooks())
    (nodeModule as unknown as { registerHooks(hooks: { resolve: typeof resolveSync }): unknown }).registerHooks({ resolve: resolveSync });
  else register(new URL('./import-firewall.js', import.meta.url));
}

/** Latches the firewall; throws unless every `import()` is refused afterwards (fail closed). */
export async function latchImportFirewall(): Promise<void> {
  await import(LATCH_SPECIFIER).then(
    () => {
      throw new Error('lockdown: the import firewall did not latch');
    },
    (error: Error) => {
      if (!String(error?.message).includes(REFUSAL)) throw new Error(`lockdown: the import firewall is not installed (${error?.message})`);
    },
  );
  const stillOpen = await import('node:fs').then(
    () => true,
    () => false,
  );
  if (stillOpen) throw new Error('lockdown: import() still works after latching the firewall');
}
