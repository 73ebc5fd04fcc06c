/**
 * Fitting a cell's reply under --max-reply-bytes: its content blocks (the text a model reads, figures, links) built
 * from the structured reply, then images, the file list and the longest strings cut in that order until it fits.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { jsonBytes, shrinkLongestStrings } from '../sessions/reply-caps.js';
import { overBudget, type Image } from './execution-figures.js';
import { executionOutputShape, type ExecutionResult } from './execution-schema.js';

/**
 * Said once in a reply that shows HTML files (Plotly charts, workers/python/rich_output.py): no image of them can be
 * made in the sandbox (static export needs kaleido, a browser engine), so the model must know it has not seen them.
 */
export const HTML_OUTPUT_NOTE =
  'You cannot see these HTML outputs (interactive charts): this sandbox has no browser or image renderer for them. ' +
  'The user can open the file; to look at a chart yourself, draw it with matplotlib, whose figures come back as images.';
/** File references kept in a reply that has to be cut to fit. */
const FILES_KEPT_WHEN_CUT = 50;

/** How a reply is shaped, beyond the execution itself. */
export interface ReplyOptions {
  maxReplyBytes: number;
  /** Add a resource_link block per file (--resource-links). */
  resourceLinks: boolean;
  /** The call started this session (no session_id given): the text says so. */
  newSession: boolean;
}

/**
 * Builds the content blocks and fits the whole reply under `maxBytes`: images are dropped first (each replaced by a
 * note), then the file list is shortened, then the longest strings are cut. What was cut is in `truncated`.
 */
export function fitToBudget(
  reply: ExecutionResult,
  images: Image[],
  options: ReplyOptions,
  text: (reply: ExecutionResult) => string = (shaped) => readable(shaped, options.newSession),
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
function richBlocks(reply: ExecutionResult, images: Image[], resourceLinks: boolean): CallToolResult['content'] {
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
export function readable(reply: ExecutionResult, newSession: boolean): string {
  const parts = [
    ...(newSession ? [`new session ${reply.session_id} started; pass session_id to keep state`] : []),
    `session ${reply.session_id} · cell ${reply.execution_count} · ${reply.duration_ms} ms · ${reply.success ? 'ok' : 'error'}`,
  ];
  if (reply.loaded_packages.length > 0) parts.push(`loaded packages: ${reply.loaded_packages.join(', ')}`);
  for (const failure of reply.failed_packages) parts.push(`package ${failure.name} failed to load: ${failure.reason}`);
  if (reply.stdout) parts.push(`stdout:\n${reply.stdout}`);
  if (reply.stderr) parts.push(`stderr:\n${reply.stderr}`);
  if (reply.result !== null) parts.push(`result: ${reply.result}`);
  if (reply.error) parts.push(`error: ${reply.error.type}: ${reply.error.message}\n${reply.error.traceback}`);
  if (reply.files.length > 0) parts.push(`files: ${reply.files.map((f) => `${f.path} (${f.mime_type}, ${f.size} bytes)`).join(', ')}`);
  if (reply.truncated) parts.push(`truncated (characters omitted): ${JSON.stringify(reply.truncated)}`);
  return parts.join('\n');
}
