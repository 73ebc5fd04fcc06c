import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RUNTIME_KINDS } from '../../contract.js';
import { guarded, ok, type ToolDeps } from './shared.js';

export function registerServerInfoTool(server: McpServer, deps: ToolDeps & { version: string }): void {
  const { sessions, config } = deps;
  server.registerTool(
    'server_info',
    {
      title: 'Server information',
      description:
        'Which Pyodide distribution and Python version run the sessions and why that one was chosen, preloaded package versions, and the limits in force.',
      inputSchema: {},
      outputSchema: {
        version: z.string().describe('pyodide-mcp version'),
        distribution: z.enum(RUNTIME_KINDS),
        reason: z.string().describe('Why this distribution was chosen'),
        python: z.string().nullable(),
        pyodide: z.string().nullable(),
        preload: z.array(z.string()),
        packages: z.record(z.string(), z.string()).describe('Preloaded packages and versions'),
        available_packages: z.number().int(),
        sessions: z.number().int(),
        warm_sessions: z.number().int().describe('Pre-booted sessions ready to be handed out'),
        limits: z.object({
          timeout_seconds: z.number(),
          max_timeout_seconds: z.number(),
          session_ttl_seconds: z.number(),
          max_sessions: z.number(),
          max_code_chars: z.number(),
          max_output_chars: z.number(),
          max_result_chars: z.number(),
          max_traceback_chars: z.number(),
        }),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, async () => {
      const info = await sessions.runtimeInfo();
      return ok({
        version: deps.version,
        distribution: sessions.distribution.kind,
        reason: sessions.distribution.reason,
        python: info?.python ?? null,
        pyodide: info?.pyodide ?? null,
        preload: config.preload,
        packages: info?.packages ?? {},
        available_packages: info?.available.length ?? 0,
        sessions: sessions.size,
        warm_sessions: sessions.warmReady,
        limits: {
          timeout_seconds: config.defaultTimeoutMs / 1000,
          max_timeout_seconds: config.maxTimeoutMs / 1000,
          session_ttl_seconds: config.sessionTtlMs / 1000,
          max_sessions: config.maxSessions,
          max_code_chars: config.maxCodeChars,
          max_output_chars: config.limits.stdout,
          max_result_chars: config.limits.result,
          max_traceback_chars: config.limits.traceback,
        },
      });
    }),
  );
}
