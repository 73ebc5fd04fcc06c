import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PyodideMcpError } from '../errors.js';
import type { Execution } from '../sessions.js';
import { guarded, type ToolDeps } from './shared.js';

const truncatedShape = z
  .object({ stdout: z.number(), stderr: z.number(), result: z.number(), traceback: z.number() })
  .partial()
  .nullable()
  .describe('Characters left out of each capped field, or null when nothing was cut');

export const executionOutputShape = {
  session_id: z.string().describe('The session the code ran in (new if none was given)'),
  success: z.boolean().describe('False when the code raised, timed out or was cancelled'),
  stdout: z.string(),
  stderr: z.string(),
  result: z.string().nullable().describe('repr() of the last expression, like a notebook cell, or null'),
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
  execution_count: z.number().int().describe('Number of this cell in the session'),
  duration_ms: z.number(),
  files: z.array(z.object({ uri: z.string(), name: z.string(), path: z.string(), mime_type: z.string(), size: z.number() })),
  truncated: truncatedShape,
  loaded_packages: z.array(z.string()).describe('Offline packages loaded automatically because the code imports them'),
};

type ExecutionReply = { [K in keyof typeof executionOutputShape]: z.infer<(typeof executionOutputShape)[K]> };

/** How often a long execution reports progress, when the client asked for it. */
const PROGRESS_EVERY_MS = 1000;

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
    guarded(deps.log, async ({ code, session_id, timeout_seconds }, extra) => {
      if (code.length > config.maxCodeChars) {
        throw new PyodideMcpError(
          'INVALID_INPUT',
          `code is ${code.length} characters, more than the limit of ${config.maxCodeChars} (--max-code-chars). Split it into several calls; state persists between them.`,
        );
      }
      const timeoutMs = timeout_seconds === undefined ? config.defaultTimeoutMs : Math.round(timeout_seconds * 1000);
      if (timeoutMs > config.maxTimeoutMs) {
        throw new PyodideMcpError('INVALID_INPUT', `timeout_seconds ${timeout_seconds} is above the server's limit of ${config.maxTimeoutMs / 1000} (--max-timeout).`);
      }
      const id = session_id ? session_id : (await sessions.create()).id;

      const progressToken = extra._meta?.progressToken;
      const started = Date.now();
      const progress =
        progressToken === undefined
          ? undefined
          : setInterval(() => {
              const elapsed = Math.round((Date.now() - started) / 1000);
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, progress: elapsed, total: timeoutMs / 1000, message: `running for ${elapsed} s` },
                })
                .catch(() => {});
            }, PROGRESS_EVERY_MS);
      progress?.unref();
      try {
        const execution = await sessions.execute(id, code, timeoutMs, extra.signal);
        return executionReply(id, execution, timeoutMs);
      } finally {
        clearInterval(progress);
      }
    }),
  );
}

/** Shapes an execution into the tool reply, explaining interrupts in the error. */
export function executionReply(sessionId: string, execution: Execution, timeoutMs: number): CallToolResult {
  const { outcome, interrupted, terminated } = execution;
  let error = outcome.error;
  if (terminated) {
    error = { type: terminated.code === 'EXEC_TIMEOUT' ? 'TimeoutError' : 'WorkerTerminated', message: terminated.message, traceback: '' };
  } else if (interrupted && error?.type === 'KeyboardInterrupt') {
    error =
      interrupted === 'timeout'
        ? {
            type: 'TimeoutError',
            message: `Execution exceeded the ${timeoutMs / 1000} s time limit and was interrupted. The session and its variables are intact; pass a larger timeout_seconds to allow more time.`,
            traceback: error.traceback,
          }
        : { type: 'CancelledError', message: 'Execution was cancelled by the client. The session and its variables are intact.', traceback: error.traceback };
  }
  const reply: ExecutionReply = {
    session_id: sessionId,
    success: error === null,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    result: outcome.result,
    error,
    execution_count: outcome.execution_count,
    duration_ms: Math.round(execution.durationMs * 100) / 100,
    files: [],
    truncated: outcome.truncated,
    loaded_packages: outcome.loaded_packages,
  };
  return { structuredContent: reply, content: [{ type: 'text', text: readable(reply) }] };
}

function readable(reply: ExecutionReply): string {
  const parts = [`session ${reply.session_id} · cell ${reply.execution_count} · ${reply.duration_ms} ms · ${reply.success ? 'ok' : 'error'}`];
  if (reply.loaded_packages.length > 0) parts.push(`loaded packages: ${reply.loaded_packages.join(', ')}`);
  if (reply.stdout) parts.push(`stdout:\n${reply.stdout}`);
  if (reply.stderr) parts.push(`stderr:\n${reply.stderr}`);
  if (reply.result !== null) parts.push(`result: ${reply.result}`);
  if (reply.error) parts.push(`error: ${reply.error.type}: ${reply.error.message}\n${reply.error.traceback}`);
  if (reply.truncated) parts.push(`truncated (characters omitted): ${JSON.stringify(reply.truncated)}`);
  return parts.join('\n');
}
