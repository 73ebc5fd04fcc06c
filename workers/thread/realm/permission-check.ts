/**
 * Layers 1 and 2 of the lockdown (lockdown.ts) seen from inside the worker: the host starts each session worker with
 * Node's permission model and without code generation from strings (src/supervisor/worker-sandbox.ts); these checks
 * make the worker refuse to serve (boot_failed) when either did not take effect, instead of trusting the flags.
 */
import realProcess from 'node:process';
import { inThreadHooks } from './firewall-hooks.js';

/** Layer 1 seen from inside: active when the host started this worker with the permission flags. */
export function checkPermissionModel(): 'active' | 'absent' {
  const requested = realProcess.execArgv.some((arg) => arg === '--experimental-permission' || arg === '--permission');
  const permission = (realProcess as unknown as { permission?: { has(scope: string, ref?: string): boolean } }).permission;
  if (!permission) {
    if (requested) throw new Error('lockdown: the permission model was requested but is not active in this worker');
    return 'absent';
  }
  // 'worker' stays allowed only where the import firewall needs a hooks thread (Node 20; src/supervisor/worker-sandbox.ts).
  for (const scope of inThreadHooks() ? ['fs.write', 'child', 'worker'] : ['fs.write', 'child']) {
    if (permission.has(scope)) throw new Error(`lockdown: the permission model allows ${scope} in this worker`);
  }
  return 'active';
}

/** Layer 2 seen from inside: throws if `new Function('')` still compiles. */
export function checkNoCodeGeneration(): void {
  let codegen = true;
  try {
    new Function('');
  } catch (error) {
    codegen = !(error instanceof EvalError);
  }
  if (codegen) throw new Error('lockdown: code generation from strings is allowed in this worker (hardenWorkerIsolates was not applied)');
}
