/** install_packages: Loads offline packages into a session, or (--allow-network) pure-Python wheels the server fetches and verifies. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { closeMatches, fetchWithRequirements } from '../../python/dependencies.js';
import { canonicalName } from '../../python/distribution.js';
import { toolReply, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerInstallPackagesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
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
      outputSchema: {
        session_id: z.string(),
        installed: z.array(z.string()).describe('Offline packages loaded, and name==version of wheels fetched from the index'),
        loaded: z.record(z.string(), z.string()),
        warnings: z.array(z.string()).describe('Requirements that could not be fetched (--allow-network only)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, packages }) => {
      const { available, loaded: before } = await sessions.listPackages(session_id);
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
      if (toLoad.length > 0) await sessions.loadPackages(session_id, toLoad);
      for (const wheel of fromIndex.wheels) await sessions.installWheel(session_id, wheel.filename, wheel.data);
      const { loaded } = await sessions.listPackages(session_id);
      const installed = [...toLoad, ...fromIndex.wheels.map((w) => `${w.name}==${w.version}`)];
      const notes = fromIndex.warnings.length > 0 ? ` Warnings: ${fromIndex.warnings.join('; ')}` : '';
      return ok(
        { session_id, installed, loaded, warnings: fromIndex.warnings },
        `Installed ${installed.join(', ')} into session ${session_id}.${notes}`,
      );
    }),
  );
}
