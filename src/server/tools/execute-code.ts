/** execute_code: runs a cell in a session (a new one when no session_id is given). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { checkCodeLength, timeoutFor } from '../../sessions/input-checks.js';
import { executionOutputSchema, runCellAndReply } from '../execution-reply.js';
import { pipInstallNames } from '../../python/pip-lines.js';
import type { PackageFailure } from '../../wire/contract.js';
import { installPackages } from './install-packages.js';
import { CELL_APP_TOOL_META } from '../../view/mcp-apps.js';
import { toolReply, optionalSessionIdField, timeoutField, type ToolDeps } from './shared.js';

export function registerExecuteCodeTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { config, sessions } = deps;
  return server.registerTool(
    'execute_code',
    {
      title: 'Run Python code',
      description:
        'Runs Python code in a persistent session, like a notebook cell: variables, functions, imports and files persist between calls. ' +
        'Returns stdout, stderr, the repr of the last expression as `result`, and an error with traceback if it raised. ' +
        'Omit session_id (or pass "") to start a new session; the reply carries its id. Calls on one session run in order.',
      inputSchema: z.strictObject({
        code: z.string().describe('Python source to run'),
        session_id: optionalSessionIdField('Session to run in; omit it or pass "" to create one'),
        timeout_seconds: timeoutField(config),
      }),
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      _meta: CELL_APP_TOOL_META,
    },
    toolReply(deps, async ({ code, session_id, timeout_seconds }, extra) => {
      checkCodeLength(config, code);
      const timeoutMs = timeoutFor(config, timeout_seconds);
      // `%pip install` lines: the server installs their packages first (a running cell cannot wait for it).
      const pip = pipInstallNames(code);
      // A package that fails to load does not stop the cell: its reply names it, and the cell's import says why.
      if (session_id) {
        const installFailures = pip.length > 0 ? (await installPackages(deps, session_id, pip)).failed : [];
        return runCellAndReply(deps, session_id, { code }, timeoutMs, extra, { installFailures });
      }
      const { id } = await sessions.create();
      let installFailures: PackageFailure[] = [];
      if (pip.length > 0) {
        // The reply of a refused install carries no session id: the new session would be unreachable.
        installFailures = (
          await installPackages(deps, id, pip).catch(async (error: unknown) => {
            await sessions.close(id).catch(() => {});
            throw error;
          })
        ).failed;
      }
      return runCellAndReply(deps, id, { code }, timeoutMs, extra, { newSession: true, installFailures });
    }),
  );
}
