import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RUNTIME_KINDS } from '../../wire/contract.js';
import { countField, toolReply, ok, type ToolDeps } from './shared.js';

export function registerServerInfoTool(server: McpServer, deps: ToolDeps & { version: string }): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'server_info',
    {
      title: 'Server information',
      description:
        'Which Pyodide distribution and Python version run the sessions and why that one was chosen, preloaded package versions, and the limits in force.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        version: z.string().describe('pyodide-mcp version'),
        distribution: z.enum(RUNTIME_KINDS),
        reason: z.string().describe('Why this distribution was chosen'),
        python: z.string().describe('Python version of the sessions'),
        pyodide: z.string().describe('Pyodide version of the sessions'),
        preload: z.array(z.string()),
        packages: z.record(z.string(), z.string()).describe('Preloaded packages and versions'),
        available_packages: countField('Packages loadable offline'),
        sessions: countField('Live sessions'),
        warm_sessions: countField('Pre-booted sessions ready to be handed out'),
        warm_preloaded: countField('Of those, sessions that have imported the preload set too'),
        limits: z.object({
          timeout_seconds: z.number(),
          max_timeout_seconds: z.number(),
          session_ttl_seconds: z.number(),
          max_sessions: z.number(),
          max_code_chars: z.number(),
          max_output_chars: z.number(),
          max_result_chars: z.number(),
          max_traceback_chars: z.number(),
          max_session_memory_mb: z.number(),
          max_total_memory_mb: z.number().describe('Memory budget of the whole server (--max-total-memory-mb)'),
        }),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async () => {
      // From the distribution's metadata, so it answers at once, even while the first session boots.
      const facts = sessions.facts;
      return ok({
        version: deps.version,
        distribution: sessions.distribution.kind,
        reason: sessions.distribution.reason,
        python: facts.python,
        pyodide: facts.pyodide,
        preload: config.preload,
        packages: facts.packages,
        available_packages: facts.available.length,
        sessions: sessions.size,
        warm_sessions: sessions.warmReady,
        warm_preloaded: sessions.warmPreloaded,
        limits: {
          timeout_seconds: config.defaultTimeoutMs / 1000,
          max_timeout_seconds: config.maxTimeoutMs / 1000,
          session_ttl_seconds: config.sessionTtlMs / 1000,
          max_sessions: config.maxSessions,
          max_code_chars: config.maxCodeChars,
          max_output_chars: config.limits.stdout,
          max_result_chars: config.limits.result,
          max_traceback_chars: config.limits.traceback,
          max_session_memory_mb: config.maxSessionMemoryMb,
          max_total_memory_mb: config.memoryBudget.totalMb,
        },
      });
    }),
  );
}
