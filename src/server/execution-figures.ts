/** The figures of a cell's reply: read from the session's files as image blocks, within the reply's budget. */
import type { CellRun } from '../sessions/manager.js';
import type { ToolDeps } from './tools/shared.js';

/** Image types MCP clients can show inline; SVG is linked instead. */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An image block for a figure, or the reason it is not inline. */
export type Image = { path: string; mimeType: string; data: string } | { path: string; note: string };

/**
 * Reads the figures a cell showed (up to --max-image-bytes each) from the session's files. Security: only the first
 * figures whose base64 fits in --max-reply-bytes are kept as data; fitToBudget would drop every later one anyway (it
 * drops images last first), so they get its note at once. Measured before: 100 figures of 1 MB held about 650 MB in
 * the server and kept its event loop busy for 200 s while fitToBudget serialized the reply once per dropped image.
 */
export async function readImages(deps: ToolDeps, sessionId: string, execution: CellRun): Promise<Image[]> {
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
export function overBudget(path: string): Image {
  return { path, note: `(${path} not inline: the reply would exceed --max-reply-bytes; read it as a resource)` };
}
