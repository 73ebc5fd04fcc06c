/** What every tool module receives, and the helpers that shape replies. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Config } from '../config.js';
import { PyodideMcpError } from '../../errors.js';
import type { HostAccess } from '../../sessions/host-paths.js';
import { jsonBytes } from '../../sessions/reply-caps.js';
import type { SessionAccess } from '../../sessions/scope.js';
import type { RestoreReport } from '../../sessions/manager.js';

export interface ToolDeps {
  /** The session manager, or one client's scope of it (Streamable HTTP). */
  sessions: SessionAccess;
  config: Config;
  log: (message: string) => void;
}

export { fileRefSchema } from '../../sessions/file-index.js';

/** Where host file tools may read and write, and how their descriptions say it. */
export function hostAccess(config: Config): { access: HostAccess; where: string } {
  const access = { allowDirs: config.allowDirs, allowAll: config.allowAllDirs };
  const where = config.allowAllDirs
    ? 'any host directory (--allow-all-dirs)'
    : config.allowDirs.length > 0
      ? `allowed directories only (${config.allowDirs.join(', ')})`
      : 'no host directory: host file access is off until the server is started with --allow-dir <dir>';
  return { access, where };
}

export {
  countField,
  dottedNameField,
  optionalArg,
  optionalSessionIdField,
  orNull,
  pathField,
  sessionIdField,
  timeoutField,
} from './fields.js';

/**
 * A successful reply: structured content plus the same data as compact JSON text (the MCP spec's fallback for
 * clients that ignore structuredContent). Compact because some clients hand the model both.
 */
export function ok<T extends object>(structured: T, text?: string): CallToolResult {
  return {
    structuredContent: structured as Record<string, unknown>,
    content: [{ type: 'text', text: text ?? JSON.stringify(structured) }],
  };
}

/** Tells a reply's reader that its session was restored from --state-dir first, and how that went. */
function noteRestored(result: CallToolResult, sessionId: string, report: RestoreReport): void {
  const parts = [
    `session ${sessionId} was restored after a server restart: ${report.files} files copied back, ${report.cells} cells replayed`,
  ];
  if (report.failed.length > 0) parts.push(`cells that failed on replay: ${report.failed.join(', ')}`);
  if (report.skipped.length > 0) parts.push(`not replayed (interrupted before the restart): ${report.skipped.join(', ')}`);
  if (report.dropped > 0)
    parts.push(`${report.dropped} older cells were no longer kept (--max-history-cells, --max-history-bytes) and were not replayed`);
  if (report.unread.length > 0)
    parts.push(`parts of the saved cell log could not be read, their cells not replayed: ${report.unread.join('; ')}`);
  if (report.skipped_files.length > 0) parts.push(`files not copied back: ${report.skipped_files.slice(0, 20).join(', ')}`);
  const line = parts.join('; ');
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  // Execution replies (execute_code, run_file, call_function) carry it as a field of their schema.
  if (structured && 'success' in structured && 'execution_count' in structured) structured.restored = report;
  const first = result.content[0];
  if (first?.type === 'text' && !result.isError && structured && 'success' in structured) first.text = `${line}\n${first.text}`;
  else result.content.push({ type: 'text', text: line });
}

/**
 * The one place where a failure becomes an MCP tool error (isError): the message says what was
 * wrong and what to do. Errors we did not anticipate are reported as internal, and logged.
 */
export function toToolError(error: unknown, log: (message: string) => void): CallToolResult {
  if (error instanceof PyodideMcpError) {
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  }
  log(`internal error: ${(error as Error)?.stack ?? String(error)}`);
  return { isError: true, content: [{ type: 'text', text: `INTERNAL_ERROR: ${(error as Error)?.message ?? String(error)}` }] };
}

/**
 * Wraps a handler into what answers the tool call: every thrown error becomes a tool error reply, and no reply exceeds
 * --max-reply-bytes (execute_code and run_file fit themselves under it; for other tools a reply that large means the
 * request was too broad, and the error says how to narrow it).
 *
 * With --state-dir, the session manager restores a session saved before a restart when a call names it; the reply
 * of the call that named it says so: a `restored` field in an execution reply, a line of text in every reply.
 */
export function toolReply<A extends unknown[]>(
  deps: Pick<ToolDeps, 'log' | 'config'> & Partial<Pick<ToolDeps, 'sessions'>>,
  handler: (...args: A) => Promise<CallToolResult>,
) {
  return async (...args: A): Promise<CallToolResult> => {
    const sessionId = (args[0] as { session_id?: unknown } | undefined)?.session_id;
    // Taken whatever the outcome: a restore whose call failed is not told by a later reply.
    const restoreReport = () => (deps.sessions && typeof sessionId === 'string' ? deps.sessions.takeRestoreReport(sessionId) : null);
    try {
      const result = await handler(...args);
      const restored = restoreReport();
      if (restored && typeof sessionId === 'string') noteRestored(result, sessionId, restored);
      const size = jsonBytes(result);
      if (size > deps.config.maxReplyBytes) {
        throw new PyodideMcpError(
          'REPLY_TOO_LARGE',
          `The reply would be ${size} bytes, above the server's limit of ${deps.config.maxReplyBytes} (--max-reply-bytes). Ask for less: list a subdirectory, read a smaller page (offset/length), or run code that prints a summary.`,
        );
      }
      if (!deps.config.structuredContent) {
        // --no-structured-content: some clients (Mastra) give the model only the text of a reply that carries
        // structuredContent, dropping its images; without it the text block carries the reply and images reach the model.
        delete result.structuredContent;
      }
      return result;
    } catch (error) {
      restoreReport();
      return toToolError(error, deps.log);
    }
  };
}
