/** Package tools: what a session has loaded and can load offline, and loading more. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { canonicalName } from '../distribution.js';
import { PyodideMcpError } from '../errors.js';
import { guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerPackageTools(server: McpServer, deps: ToolDeps): void {
  const { sessions } = deps;
  server.registerTool(
    'list_packages',
    {
      title: 'List Python packages',
      description:
        'Lists the packages loaded in a session (with versions) and every package available offline that install_packages can load. Without session_id, lists what the server offers.',
      inputSchema: { session_id: sessionIdField.optional() },
      outputSchema: {
        session_id: z.string().nullable(),
        loaded: z.record(z.string(), z.string()).describe('Loaded packages and versions (empty without a session)'),
        available: z.array(z.string()).describe('Packages that can be loaded offline'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id }) => {
      if (session_id) {
        const listing = await sessions.listPackages(session_id);
        return ok({ session_id, ...listing });
      }
      const info = await sessions.runtimeInfo();
      return ok({ session_id: null, loaded: {}, available: info?.available ?? [] });
    }),
  );

  server.registerTool(
    'install_packages',
    {
      title: 'Load offline Python packages',
      description:
        "Loads packages from the server's offline package set into a session (e.g. scipy, scikit-learn). There is no network: names outside the offline set are refused with close matches. list_packages shows what is available.",
      inputSchema: {
        session_id: sessionIdField,
        packages: z.array(z.string().min(1).max(100)).min(1).max(50).describe('Package names, e.g. ["scipy"]'),
      },
      outputSchema: { session_id: z.string(), installed: z.array(z.string()), loaded: z.record(z.string(), z.string()) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, packages }) => {
      const { available } = await sessions.listPackages(session_id);
      const byCanonical = new Map(available.map((name) => [canonicalName(name), name]));
      const resolved: string[] = [];
      const unknown: string[] = [];
      for (const name of packages) {
        const match = byCanonical.get(canonicalName(name));
        if (match) resolved.push(match);
        else unknown.push(`${name}${hint(name, available)}`);
      }
      if (unknown.length > 0) {
        throw new PyodideMcpError(
          'PACKAGE_UNAVAILABLE',
          `Not available offline: ${unknown.join('; ')}. This server has no network access; list_packages shows the ${available.length} packages it can load. Nothing was installed.`,
        );
      }
      await sessions.loadPackages(session_id, resolved);
      const { loaded } = await sessions.listPackages(session_id);
      return ok({ session_id, installed: resolved, loaded }, `Loaded ${resolved.join(', ')} into session ${session_id}.`);
    }),
  );
}

/** " (did you mean scipy, scikit-learn?)" for names within a small edit distance or sharing a prefix. */
function hint(name: string, available: string[]): string {
  const wanted = canonicalName(name);
  const close = available
    .map((candidate) => ({ candidate, d: distance(wanted, canonicalName(candidate)) }))
    .filter(({ candidate, d }) => d <= Math.max(2, Math.floor(wanted.length / 3)) || canonicalName(candidate).startsWith(wanted.slice(0, 4)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 5)
    .map(({ candidate }) => candidate);
  return close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '';
}
