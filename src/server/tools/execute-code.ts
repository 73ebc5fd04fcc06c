import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { sessionUri } from '../../sandbox/host-paths.js';
import type { Execution } from '../../sessions/manager.js';
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
  display: z
    .array(z.object({ mime_type: z.string(), path: z.string().optional(), uri: z.string().optional(), text: z.string().optional() }))
    .describe('Figures and rich outputs (IPython display protocol) in the order shown; images are also returned as image blocks'),
  loaded_packages: z.array(z.string()).describe('Offline packages loaded automatically because the code imports them'),
};

type ExecutionReply = { [K in keyof typeof executionOutputShape]: z.infer<(typeof executionOutputShape)[K]> };

/** How often a long execution reports progress, when the client asked for it. */
const PROGRESS_EVERY_MS = 1000;

/** The `extra` argument of a tool callback, reduced to what execution needs. */
type CallExtra = Parameters<ToolCallback<undefined>>[0];

/**
 * Runs code (or a workspace file) in a session, sending progress notifications while it runs when the
 * client asked for them, and shapes the reply. Shared by execute_code and run_file.
 */
export async function runWithProgress(
  deps: ToolDeps,
  sessionId: string,
  source: { code: string } | { path: string },
  timeoutMs: number,
  extra: CallExtra,
): Promise<CallToolResult> {
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
    const execution = await deps.sessions.execute(sessionId, source, timeoutMs, extra.signal);
    return executionReply(deps, sessionId, execution, timeoutMs);
  } finally {
    clearInterval(progress);
  }
}

/** Checks timeout_seconds against the server's limits; returns milliseconds. */
export function timeoutFor(config: ToolDeps['config'], timeoutSeconds: number | undefined): number {
  const timeoutMs = timeoutSeconds === undefined ? config.defaultTimeoutMs : Math.round(timeoutSeconds * 1000);
  if (timeoutMs > config.maxTimeoutMs) {
    throw new PyodideMcpError('INVALID_INPUT', `timeout_seconds ${timeoutSeconds} is above the server's limit of ${config.maxTimeoutMs / 1000} (--max-timeout).`);
  }
  return timeoutMs;
}

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
      const timeoutMs = timeoutFor(config, timeout_seconds);
      const id = session_id ? session_id : (await sessions.create()).id;
      return runWithProgress(deps, id, { code }, timeoutMs, extra);
    }),
  );
}

/** Shapes an execution into the tool reply, explaining interrupts in the error. */
export function executionReply(deps: ToolDeps, sessionId: string, execution: Execution, timeoutMs: number): CallToolResult {
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
    files: execution.files,
    truncated: outcome.truncated,
    display: outcome.display.map((item) => (item.path ? { ...item, uri: sessionUri(sessionId, item.path) } : item)),
    loaded_packages: outcome.loaded_packages,
  };
  const content: CallToolResult['content'] = [{ type: 'text', text: readable(reply) }];
  if (!terminated) content.push(...richBlocks(deps, sessionId, reply));
  return { structuredContent: reply, content };
}

/** Image blocks for figures (so a model sees the plot), text blocks for HTML/Markdown/LaTeX, links for files. */
function richBlocks(deps: ToolDeps, sessionId: string, reply: ExecutionReply): CallToolResult['content'] {
  const blocks: CallToolResult['content'] = [];
  const files = deps.sessions.filesOf(sessionId);
  for (const item of reply.display) {
    if (item.text !== undefined) {
      blocks.push({ type: 'text', text: `[${item.mime_type}]\n${item.text}` });
    } else if (item.path && INLINE_IMAGE_TYPES.has(item.mime_type)) {
      const data = files.read(item.path);
      if (data.byteLength <= deps.config.maxImageBytes) blocks.push({ type: 'image', data: data.toString('base64'), mimeType: item.mime_type });
      else blocks.push({ type: 'text', text: `(${item.path} is ${data.byteLength} bytes, above --max-image-bytes; read it as a resource)` });
    }
  }
  for (const file of reply.files) {
    blocks.push({ type: 'resource_link', uri: file.uri, name: file.name, mimeType: file.mime_type, description: `${file.path} (${file.size} bytes)` });
  }
  return blocks;
}

/** Image types MCP clients can show inline; SVG is linked instead. */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function readable(reply: ExecutionReply): string {
  const parts = [`session ${reply.session_id} · cell ${reply.execution_count} · ${reply.duration_ms} ms · ${reply.success ? 'ok' : 'error'}`];
  if (reply.loaded_packages.length > 0) parts.push(`loaded packages: ${reply.loaded_packages.join(', ')}`);
  if (reply.stdout) parts.push(`stdout:\n${reply.stdout}`);
  if (reply.stderr) parts.push(`stderr:\n${reply.stderr}`);
  if (reply.result !== null) parts.push(`result: ${reply.result}`);
  if (reply.error) parts.push(`error: ${reply.error.type}: ${reply.error.message}\n${reply.error.traceback}`);
  if (reply.files.length > 0) parts.push(`files: ${reply.files.map((f) => `${f.path} (${f.mime_type}, ${f.size} bytes)`).join(', ')}`);
  if (reply.truncated) parts.push(`truncated (characters omitted): ${JSON.stringify(reply.truncated)}`);
  return parts.join('\n');
}
