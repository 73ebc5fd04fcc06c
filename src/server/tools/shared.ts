/** What every tool module receives, and the helpers that shape replies. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import { PyodideMcpError } from '../../errors.js';
import type { HostAccess } from '../../sandbox/host-paths.js';
import { jsonBytes } from '../../sandbox/reply-caps.js';
import type { SessionAccess } from '../../sessions/scope.js';

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

export { countField, dottedNameField, optionalArg, orNull, pathField, sessionIdField, timeoutField } from './fields.js';

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
 * Wraps a handler so that every thrown error becomes a tool error reply, and no reply exceeds --max-reply-bytes
 * (execute_code and run_file fit themselves under it; for other tools a reply that large means the request was too
 * broad, and the error says how to narrow it).
 */
export function guarded<A extends unknown[]>(deps: Pick<ToolDeps, 'log' | 'config'>, handler: (...args: A) => Promise<CallToolResult>) {
  return async (...args: A): Promise<CallToolResult> => {
    try {
      const result = await handler(...args);
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
      return toToolError(error, deps.log);
    }
  };
}
