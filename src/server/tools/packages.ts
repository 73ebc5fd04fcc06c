/** Package tools: what a session has loaded and can load offline, and loading more. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { canonicalName } from '../../python/distribution.js';
import { PyodideMcpError } from '../../errors.js';
import { fetchPurePythonWheel, type FetchedWheel } from '../../python/package-index.js';
import { guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerPackageTools(server: McpServer, deps: ToolDeps): void {
  const { sessions, config } = deps;
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
        config.allowNetwork
          ? `Loads packages into a session: from the server's offline set (e.g. scipy, scikit-learn), otherwise pure-Python wheels from ${config.indexUrl} (fetched and verified by the server). list_packages shows the offline set.`
          : "Loads packages from the server's offline package set into a session (e.g. scipy, scikit-learn). There is no network: names outside the offline set are refused with close matches. list_packages shows what is available.",
      inputSchema: {
        session_id: sessionIdField,
        packages: z.array(z.string().min(1).max(100)).min(1).max(50).describe('Package names, e.g. ["scipy"]'),
      },
      outputSchema: {
        session_id: z.string(),
        installed: z.array(z.string()).describe('Offline packages loaded, and name==version of wheels fetched from the index'),
        loaded: z.record(z.string(), z.string()),
        warnings: z.array(z.string()).describe('Requirements that could not be fetched (--allow-network only)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, packages }) => {
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
          `Not available offline: ${elsewhere.map((name) => `${name}${hint(name, available)}`).join('; ')}. This server has no network access (the operator can allow pure-Python installs from an index with --allow-network); list_packages shows the ${available.length} packages it can load. Nothing was installed.`,
        );
      }
      // Everything is fetched and verified before anything is installed, so a failure changes nothing.
      const fromIndex = elsewhere.length > 0 ? await fetchWithRequirements(elsewhere, config, byCanonical, before) : { wheels: [], offlineDeps: [], warnings: [] };
      const toLoad = [...new Set([...offline, ...fromIndex.offlineDeps])];
      if (toLoad.length > 0) await sessions.loadPackages(session_id, toLoad);
      for (const wheel of fromIndex.wheels) await sessions.installWheel(session_id, wheel.filename, wheel.data);
      const { loaded } = await sessions.listPackages(session_id);
      const installed = [...toLoad, ...fromIndex.wheels.map((w) => `${w.name}==${w.version}`)];
      const notes = fromIndex.warnings.length > 0 ? ` Warnings: ${fromIndex.warnings.join('; ')}` : '';
      return ok({ session_id, installed, loaded, warnings: fromIndex.warnings }, `Installed ${installed.join(', ')} into session ${session_id}.${notes}`);
    }),
  );
}

/** Most wheels one install_packages call fetches (requested names and their requirements). */
const MAX_FETCHED_WHEELS = 40;

/**
 * Fetches the requested names from the index, then their requirements (offline ones are loaded from the
 * offline set instead). A requested name that cannot be fetched fails the call; a requirement that
 * cannot is reported as a warning (it may be optional or already present).
 */
async function fetchWithRequirements(
  names: string[],
  config: ToolDeps['config'],
  offline: Map<string, string>,
  loaded: Record<string, string>,
): Promise<{ wheels: FetchedWheel[]; offlineDeps: string[]; warnings: string[] }> {
  const wheels: FetchedWheel[] = [];
  const offlineDeps: string[] = [];
  const warnings: string[] = [];
  const seen = new Set(Object.keys(loaded).map(canonicalName));
  const queue = names.map((name) => ({ name, requested: true }));
  while (queue.length > 0) {
    const { name, requested } = queue.shift()!;
    const key = canonicalName(name);
    if (seen.has(key)) continue;
    seen.add(key);
    const offlineName = offline.get(key);
    if (offlineName) {
      offlineDeps.push(offlineName);
      continue;
    }
    if (wheels.length >= MAX_FETCHED_WHEELS) {
      warnings.push(`stopped after ${MAX_FETCHED_WHEELS} wheels; ${name} was not fetched`);
      continue;
    }
    try {
      const wheel = await fetchPurePythonWheel(config.indexUrl, name, config.fileLimits.maxFileBytes);
      wheels.push(wheel);
      queue.push(...wheel.requires.map((dep) => ({ name: dep, requested: false })));
    } catch (error) {
      if (requested) throw error;
      warnings.push((error as Error).message);
    }
  }
  return { wheels, offlineDeps, warnings };
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
