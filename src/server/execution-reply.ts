/**
 * Running a cell for a tool (execute_code, run_file) and shaping its reply: progress notifications while it runs,
 * the host-side caps on every field (src/sessions/reply-caps.ts), figures as image blocks, files as links, and the
 * whole reply fitted under --max-reply-bytes.
 */
import type { ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TRUNCATABLE } from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import { legacyHint } from '../python/legacy-hint.js';
import { sessionUri } from '../sessions/host-paths.js';
import { jsonBytes, shrinkLongestStrings } from '../sessions/reply-caps.js';
import type { CellSource } from '../sessions/channel.js';
import type { Execution } from '../sessions/manager.js';
import { countField, fileRefSchema, orNull, type ToolDeps } from './tools/shared.js';
import { notebookRunShape } from './notebook-cells.js';

export const executionOutputShape = {
  session_id: z.string().describe('The session the code ran in (new if none was given)'),
  success: z.boolean().describe('False when the code raised, timed out or was cancelled'),
  stdout: z.string(),
  stderr: z.string(),
  result: orNull(z.string(), 'repr() of the last expression, like a notebook cell, or null'),
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
  execution_count: countField('Number of this cell in the session'),
  duration_ms: z.number(),
  files: z.array(fileRefSchema),
  truncated: z
    .partialRecord(z.enum([...TRUNCATABLE, 'files', 'notebook']), z.number())
    .nullable()
    .describe('Characters (display: items; files: entries) left out of each capped field, or null when nothing was cut'),
  display: z
    .array(z.object({ mime_type: z.string(), path: z.string().optional(), uri: z.string().optional(), text: z.string().optional() }))
    .describe('Figures and rich outputs (IPython display protocol) in the order shown; images are also returned as image blocks'),
  loaded_packages: z.array(z.string()).describe('Offline packages loaded automatically because the code imports them'),
  restored: z
    .object({
      cells: z.number().describe('Cells replayed'),
      failed: z.array(z.number()).describe('Numbers of the replayed cells that raised'),
      skipped: z.array(z.number()).describe('Numbers of the cells not replayed: interrupted before the restart'),
      dropped: z.number().describe('Older cells beyond --max-history-cells or --max-history-bytes, not replayed'),
      unread: z
        .array(z.string())
        .describe(
          'Parts of the saved cell log that could not be read (torn or corrupt lines, an unreadable log), with why; their cells were not replayed',
        ),
      files: z.number().describe('Workspace files copied back'),
      skipped_files: z.array(z.string()).describe('Files that could not be copied back'),
    })
    .optional()
    .describe('Present when this call first restored its session from --state-dir after a server restart'),
  notebook: notebookRunShape.optional().describe('run_file of a .ipynb: each code cell run, in order (src/server/notebook-run.ts)'),
};

/** execute_code's structured reply; also what the library's session.execute() resolves to. */
export type ExecutionReply = z.infer<z.ZodObject<typeof executionOutputShape>>;

/** How often a long execution reports progress, when the client asked for it. */
const PROGRESS_EVERY_MS = 1000;
/** Image types MCP clients can show inline; SVG is linked instead. */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/**
 * Said once in a reply that shows HTML files (Plotly charts, workers/python/rich_output.py): no image of them can be
 * made in the sandbox (static export needs kaleido, a browser engine), so the model must know it has not seen them.
 */
export const HTML_OUTPUT_NOTE =
  'You cannot see these HTML outputs (interactive charts): this sandbox has no browser or image renderer for them. ' +
  'The user can open the file; to look at a chart yourself, draw it with matplotlib, whose figures come back as images.';
/** File references kept in a reply that has to be cut to fit. */
const FILES_KEPT_WHEN_CUT = 50;

/** The `extra` argument of a tool callback, reduced to what execution needs. */
type CallExtra = Parameters<ToolCallback<undefined>>[0];

/**
 * Runs code (or a workspace file) in a session, sending progress notifications while it runs when the
 * client asked for them, and shapes the reply.
 */
export async function runWithProgress(
  deps: ToolDeps,
  sessionId: string,
  source: CellSource,
  timeoutMs: number,
  extra: CallExtra,
  newSession = false,
): Promise<CallToolResult> {
  const progressToken = extra._meta?.progressToken;
  const stop =
    progressToken === undefined
      ? () => {}
      : reportProgress((elapsed) =>
          extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: elapsed, total: timeoutMs / 1000, message: `running for ${elapsed} s` },
            })
            .catch(() => {}),
        );
  try {
    const execution = await deps.sessions.execute(sessionId, source, timeoutMs, extra.signal);
    explainLegacyError(deps, execution, 'code' in source ? source.code : '');
    const images = execution.terminated ? [] : await readImages(deps, sessionId, execution);
    return executionReply(sessionId, execution, timeoutMs, images, {
      maxReplyBytes: deps.config.maxReplyBytes,
      resourceLinks: deps.config.resourceLinks,
      newSession,
    });
  } finally {
    stop();
  }
}

/**
 * Calls `tick` with the seconds elapsed every PROGRESS_EVERY_MS until the returned stop() is called. The timer is
 * unref()ed: a running cell keeps the process alive through its worker, not through its progress reports.
 */
export function reportProgress(tick: (elapsedSeconds: number) => void): () => void {
  const started = Date.now();
  const timer = setInterval(() => tick(Math.round((Date.now() - started) / 1000)), PROGRESS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Refuses code longer than --max-code-chars, before it is queued. */
export function checkCodeLength(config: ToolDeps['config'], code: string): void {
  if (code.length > config.maxCodeChars) {
    throw new PyodideMcpError(
      'INVALID_INPUT',
      `code is ${code.length} characters, more than the limit of ${config.maxCodeChars} (--max-code-chars). Split it into several calls; state persists between them.`,
    );
  }
}

/**
 * On the legacy runtime, an error that looks like code for newer Python or newer libraries gets one more line in its
 * message: which versions run and how to get the modern runtime (src/python/legacy-hint.ts).
 */
export function explainLegacyError(deps: ToolDeps, execution: Execution, source: string): void {
  const error = execution.outcome.error;
  if (deps.sessions.distribution.kind !== 'legacy' || !error || execution.terminated) return;
  const hint = legacyHint(error, source, deps.sessions.facts);
  if (hint) execution.outcome = { ...execution.outcome, error: { ...error, message: `${error.message}\n${hint}` } };
}

/** Checks timeout_seconds against the server's limits; returns milliseconds. */
export function timeoutFor(config: ToolDeps['config'], timeoutSeconds: number | undefined): number {
  const timeoutMs = timeoutSeconds === undefined ? config.defaultTimeoutMs : Math.round(timeoutSeconds * 1000);
  if (timeoutMs > config.maxTimeoutMs) {
    throw new PyodideMcpError(
      'INVALID_INPUT',
      `timeout_seconds ${timeoutSeconds} is above the server's limit of ${config.maxTimeoutMs / 1000} (--max-timeout).`,
    );
  }
  return timeoutMs;
}

/** An image block for a figure, or the reason it is not inline. */
export type Image = { path: string; mimeType: string; data: string } | { path: string; note: string };

/**
 * Reads the figures a cell showed (up to --max-image-bytes each) from the session's files. Security: only the first
 * figures whose base64 fits in --max-reply-bytes are kept as data; fitToBudget would drop every later one anyway (it
 * drops images last first), so they get its note at once. Measured before: 100 figures of 1 MB held about 650 MB in
 * the server and kept its event loop busy for 200 s while fitToBudget serialized the reply once per dropped image.
 */
export async function readImages(deps: ToolDeps, sessionId: string, execution: Execution): Promise<Image[]> {
  const images: Image[] = [];
  let inlineBytes = 0;
  for (const item of execution.outcome.display.slice(0, 100)) {
    if (!item.path || !INLINE_IMAGE_TYPES.has(item.mime_type)) continue;
    try {
      const { data, size } = await deps.sessions.readFile(sessionId, item.path, 0, deps.config.maxImageBytes);
      if (size > deps.config.maxImageBytes) {
        images.push({ path: item.path, note: `(${item.path} is ${size} bytes, above --max-image-bytes; read it as a resource)` });
        continue;
      }
      inlineBytes += 4 * Math.ceil(data.byteLength / 3);
      if (inlineBytes > deps.config.maxReplyBytes) images.push(overBudget(item.path));
      else images.push({ path: item.path, mimeType: item.mime_type, data: Buffer.from(data).toString('base64') });
    } catch (error) {
      images.push({ path: item.path, note: `(${item.path} could not be read: ${(error as Error).message})` });
    }
  }
  return images;
}

/** A figure left out of a reply because the reply would not fit in --max-reply-bytes with it. */
function overBudget(path: string): Image {
  return { path, note: `(${path} not inline: the reply would exceed --max-reply-bytes; read it as a resource)` };
}

/** How a reply is shaped, beyond the execution itself. */
export interface ReplyOptions {
  maxReplyBytes: number;
  /** Add a resource_link block per file (--resource-links). */
  resourceLinks: boolean;
  /** The call started this session (no session_id given): the text says so. */
  newSession: boolean;
}

/** Shapes an execution into the tool reply: caps, interrupts explained, images inline, under maxReplyBytes. */
export function executionReply(
  sessionId: string,
  execution: Execution,
  timeoutMs: number,
  images: Image[],
  options: ReplyOptions,
): CallToolResult {
  return fitToBudget(shapeExecution(sessionId, execution, timeoutMs), execution.terminated ? [] : images, options);
}

/** Fits an already shaped reply (several cells' outcomes, notebook-run.ts) under the budget, read as `text` says. */
export function combinedReply(
  reply: ExecutionReply,
  images: Image[],
  options: ReplyOptions,
  text: (reply: ExecutionReply) => string,
): CallToolResult {
  return fitToBudget(reply, images, options, text);
}

/** The structured reply of an execution: how it ended explained in `error` (timeout, cancel, session ended). */
export function shapeExecution(sessionId: string, execution: Execution, timeoutMs: number): ExecutionReply {
  const { interrupted, terminated } = execution;
  const { outcome } = execution;
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
        : {
            type: 'CancelledError',
            message: 'Execution was cancelled by the client. The session and its variables are intact.',
            traceback: error.traceback,
          };
  }
  return {
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
}

/**
 * Builds the content blocks and fits the whole reply under `maxBytes`: images are dropped first (each replaced by a
 * note), then the file list is shortened, then the longest strings are cut. What was cut is in `truncated`.
 */
function fitToBudget(
  reply: ExecutionReply,
  images: Image[],
  options: ReplyOptions,
  text: (reply: ExecutionReply) => string = (shaped) => readable(shaped, options.newSession),
): CallToolResult {
  const maxBytes = options.maxReplyBytes;
  const inline = [...images];
  const build = (): CallToolResult => ({
    structuredContent: reply,
    content: [{ type: 'text', text: text(reply) }, ...richBlocks(reply, inline, options.resourceLinks)],
  });
  let result = build();
  // The common case, measured once: the loops below would each serialize the whole reply again to find it fits.
  if (jsonBytes(result) <= maxBytes) return result;
  const note = (field: string, amount: number) =>
    (reply.truncated = {
      ...(reply.truncated ?? {}),
      [field]: ((reply.truncated as Record<string, number> | null)?.[field] ?? 0) + amount,
    });
  while (jsonBytes(result) > maxBytes && inline.some((image) => 'data' in image)) {
    const index = inline.findLastIndex((image) => 'data' in image);
    inline[index] = overBudget(inline[index]!.path);
    result = build();
  }
  // Then the file list (each file is also listed by list_files and resources), halved until the reply fits.
  for (let keep = FILES_KEPT_WHEN_CUT; jsonBytes(result) > maxBytes && reply.files.length > 0; keep = Math.floor(keep / 2)) {
    if (reply.files.length <= keep) continue;
    note('files', reply.files.length - keep);
    reply.files = reply.files.slice(0, keep);
    result = build();
  }
  if (jsonBytes(result) > maxBytes) {
    // The text block repeats the structured fields, so each character costs about twice.
    const cut = shrinkLongestStrings(reply as unknown as Record<string, unknown>, () => jsonBytes(build()) <= maxBytes);
    for (const [field, amount] of Object.entries(cut)) note(field in executionOutputShape ? field : 'stdout', amount);
    result = build();
  }
  return result;
}

/**
 * Image blocks for figures (so a model sees the plot), text blocks for HTML/Markdown/LaTeX, and links for files only
 * when asked: next to an image, a resource_link makes OpenAI Agents drop the whole reply to base64 text and LangChain's
 * ChatOpenAI refuse the call, while the text already names every file.
 */
function richBlocks(reply: ExecutionReply, images: Image[], resourceLinks: boolean): CallToolResult['content'] {
  const blocks: CallToolResult['content'] = [];
  for (const item of reply.display) {
    if (item.text !== undefined) {
      blocks.push({ type: 'text', text: `[${item.mime_type}]\n${item.text}` });
    } else if (item.path && item.mime_type === 'text/html') {
      // Never inlined (a Plotly chart carries about 3.5 MB of plotly.js): named, with the note once.
      if (!blocks.some((block) => block.type === 'text' && block.text === HTML_OUTPUT_NOTE))
        blocks.push({ type: 'text', text: HTML_OUTPUT_NOTE });
      blocks.push({ type: 'text', text: `[text/html] interactive chart saved as ${item.path}${item.uri ? ` (${item.uri})` : ''}` });
    } else if (item.path) {
      const image = images.find((candidate) => candidate.path === item.path);
      if (image && 'data' in image) blocks.push({ type: 'image', data: image.data, mimeType: image.mimeType });
      else if (image) blocks.push({ type: 'text', text: image.note });
    }
  }
  for (const file of resourceLinks ? reply.files : []) {
    blocks.push({
      type: 'resource_link',
      uri: file.uri,
      name: file.name,
      mimeType: file.mime_type,
      description: `${file.path} (${file.size} bytes)`,
    });
  }
  return blocks;
}

/** The reply as a model reads it: every field that has something to say, in plain text. */
export function readable(reply: ExecutionReply, newSession: boolean): string {
  const parts = [
    ...(newSession ? [`new session ${reply.session_id} started; pass session_id to keep state`] : []),
    `session ${reply.session_id} · cell ${reply.execution_count} · ${reply.duration_ms} ms · ${reply.success ? 'ok' : 'error'}`,
  ];
  if (reply.loaded_packages.length > 0) parts.push(`loaded packages: ${reply.loaded_packages.join(', ')}`);
  if (reply.stdout) parts.push(`stdout:\n${reply.stdout}`);
  if (reply.stderr) parts.push(`stderr:\n${reply.stderr}`);
  if (reply.result !== null) parts.push(`result: ${reply.result}`);
  if (reply.error) parts.push(`error: ${reply.error.type}: ${reply.error.message}\n${reply.error.traceback}`);
  if (reply.files.length > 0) parts.push(`files: ${reply.files.map((f) => `${f.path} (${f.mime_type}, ${f.size} bytes)`).join(', ')}`);
  if (reply.truncated) parts.push(`truncated (characters omitted): ${JSON.stringify(reply.truncated)}`);
  return parts.join('\n');
}
