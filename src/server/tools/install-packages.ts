/** install_packages: Loads offline packages into a session, or (--allow-network) pure-Python wheels the server fetches and verifies. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { closeMatches, fetchWithRequirements } from '../../python/dependencies.js';
import { canonicalName } from '../../python/distribution.js';
import type { PackageFailure } from '../../wire/contract.js';
import { packageFailureField } from './fields.js';
import { toolReply, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerInstallPackagesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { config } = deps;
  return server.registerTool(
    'install_packages',
    {
      title: 'Load offline Python packages',
      description: config.allowNetwork
        ? `Loads packages into a session: from the server's offline set (e.g. scipy, scikit-learn), otherwise pure-Python wheels from ${config.indexUrl} (fetched and verified by the server). list_packages shows the offline set.`
        : "Loads packages from the server's offline package set into a session (e.g. scipy, scikit-learn). There is no network: names outside the offline set are refused with close matches. list_packages shows what is available.",
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        packages: z.array(z.string().min(1).max(100)).min(1).max(50).describe('Package names, e.g. ["scipy"]'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        installed: z.array(z.string()).describe('Offline packages loaded, and name==version of wheels fetched from the index'),
        loaded: z.record(z.string(), z.string()),
        failed: z
          .array(packageFailureField)
          .describe("Packages that failed to load (requirements too), with the loader's reason; never in `installed`"),
        warnings: z.array(z.string()).describe('Requirements that could not be fetched (--allow-network only)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, packages }) => {
      const { installed, loaded, failed, warnings } = await installPackages(deps, session_id, packages);
      if (installed.length === 0 && failed.length > 0) {
        throw new PyodideMcpError(
          'PACKAGE_LOAD_FAILED',
          `Nothing was installed into session ${session_id}: ${describeFailures(failed)}. The session is intact; other packages still load.`,
        );
      }
      const failures = failed.length > 0 ? ` Failed to load: ${describeFailures(failed)}.` : '';
      const notes = warnings.length > 0 ? ` Warnings: ${warnings.join('; ')}` : '';
      return ok(
        { session_id, installed, loaded, failed, warnings },
        `Installed ${installed.join(', ')} into session ${session_id}.${failures}${notes}`,
      );
    }),
  );
}

/** Each failure as `name (reason)`, for a reply's text. */
export function describeFailures(failed: PackageFailure[]): string {
  return failed.map((failure) => `${failure.name} (${failure.reason})`).join('; ');
}

/**
 * Installs packages into a session: the offline set, and (--allow-network) pure-Python wheels the server fetches
 * and verifies. Shared by install_packages and the `%pip install` lines of execute_code. Nothing is installed
 * when any name is unavailable (PACKAGE_UNAVAILABLE, with close matches). A package that fails to load is returned
 * in `failed` with the loader's reason, and is not in `installed`.
 */
export async function installPackages(
  deps: ToolDeps,
  sessionId: string,
  packages: string[],
): Promise<{ installed: string[]; loaded: Record<string, string>; failed: PackageFailure[]; warnings: string[] }> {
  const { sessions, config } = deps;
  const { available, loaded: before } = await sessions.listPackages(sessionId);
  const byCanonical = new Map(available.map((name) => [canonicalName(name), name]));
  const offline: string[] = [];
  const elsewhere: string[] = [];
  for (const name of packages) {
    const match = byCanonical.get(canonicalName(name));
    if (match) offline.push(match);
    else elsewhere.push(name);
  }
  if (elsewhere.length > 0 && !config.allowNetwork) {
    throw new PyodideMcpError(
      'PACKAGE_UNAVAILABLE',
      `Not available offline: ${elsewhere.map((name) => `${name}${closeMatches(name, available)}`).join('; ')}. This server has no network access (the operator can allow pure-Python installs from an index with --allow-network); list_packages shows the ${available.length} packages it can load. Nothing was installed.`,
    );
  }
  // Everything is fetched and verified before anything is installed, so a failure changes nothing.
  const fromIndex =
    elsewhere.length > 0
      ? await fetchWithRequirements(elsewhere, config, byCanonical, before)
      : { wheels: [], offlineDeps: [], warnings: [] };
  const toLoad = [...new Set([...offline, ...fromIndex.offlineDeps])];
  const load = toLoad.length > 0 ? await sessions.loadPackages(sessionId, toLoad) : { loaded: [], failed: [] };
  for (const wheel of fromIndex.wheels) await sessions.installWheel(sessionId, wheel.filename, wheel.data);
  const { loaded } = await sessions.listPackages(sessionId);
  const installed = [...load.loaded, ...fromIndex.wheels.map((w) => `${w.name}==${w.version}`)];
  return { installed, loaded, failed: load.failed, warnings: fromIndex.warnings };
}
