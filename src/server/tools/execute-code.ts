/** execute_code: runs a cell in a session (a new one when no session_id is given). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { executionOutputShape, runWithProgress, timeoutFor } from '../execution-reply.js';
import { guarded, type ToolDeps } from './shared.js';

export function registerExecuteCodeTool(server: McpServer, deps: ToolDeps): void {
  const { config, sessions } = deps;
  server.registerTool(
    'execute_code',
    {
      title: 'Run Python code',
      description:
        'Runs Python code in a persistent session, like a notebook cell: variables, functions, imports and files persist between calls. ' +
        'Returns stdout, stderr, the repr of the last expression as `result`, and an error with traceback if it raised. ' +
        'Omit session_id (or pass "") to start a new session; the reply carries its id. Calls on one session run in order.',
      inputSchema: {
        code: z.string().describe('Python source to run'),
        session_id: z.string().max(200).optional().describe('Session to run in; omit or "" to create one'),
        timeout_seconds: z
          .number()
          .positive()
          .optional()
          .describe(`Time limit for this call (default ${config.defaultTimeoutMs / 1000}, at most ${config.maxTimeoutMs / 1000})`),
      },
      outputSchema: executionOutputShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps, async ({ code, session_id, timeout_seconds }, extra) => {
      if (code.length > config.maxCodeChars) {
        throw new PyodideMcpError(
          'INVALID_INPUT',
          `code is ${code.length} characters, more than the limit of ${config.maxCodeChars} (--max-code-chars). Split it into several calls; state persists between them.`,
        );
      }
      const timeoutMs = timeoutFor(config, timeout_seconds);
      const id = session_id ? session_id : (await sessions.create()).id;
      return runWithProgress(deps, id, { code }, timeoutMs, extra);
    }),
  );
}
