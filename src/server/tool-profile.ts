/**
 * Which tools a client sees: `--profile full` (every tool, the default), `--profile compact` (a small set with short
 * descriptions, for small context windows) and `--tools` (an explicit allow-list, which wins over the profile's set).
 * Every tool is registered first and the others are removed, so the tool modules know nothing of profiles.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
import { UsageError } from '../errors.js';

/** The compact profile: its tools, each with the shorter description it gets there. */
export const COMPACT_TOOLS: Record<string, string> = {
  execute_code: 'Run Python in a persistent session (omit session_id for a new one). Returns stdout, stderr, result, error, figures.',
  list_files: "List a session's workspace files.",
  read_file: 'Read a workspace file (text or base64, paged).',
  write_file: 'Write a workspace file.',
  list_variables: "List the session's variables: type, short repr, shape/dtype of data.",
  inspect_variable: 'Describe one variable or dotted path: repr, doc, signature, columns, head, stats.',
  reset_session: 'Clear the namespace (same session id; files kept unless clear_files).',
};

/**
 * Runs `register` and returns every tool it registered, by name. Why the detour: the SDK's RegisteredTool does not
 * carry its name, and writing each name a second time here would be one fact in two places.
 */
export function recordTools(server: McpServer, register: () => void): Map<string, RegisteredTool> {
  const tools = new Map<string, RegisteredTool>();
  const original = server.registerTool;
  const bound = original.bind(server) as (...args: unknown[]) => RegisteredTool;
  server.registerTool = ((name: string, ...rest: unknown[]) => {
    const tool = bound(name, ...rest);
    tools.set(name, tool);
    return tool;
  }) as McpServer['registerTool'];
  try {
    register();
  } finally {
    server.registerTool = original;
  }
  return tools;
}

/**
 * Removes the tools the profile and --tools leave out; in the compact profile, shortens descriptions. Throws a
 * UsageError naming an unknown tool in --tools (the CLI exits with code 2 on it).
 */
export function applyToolProfile(tools: Map<string, RegisteredTool>, config: Pick<Config, 'profile' | 'tools'>): string[] {
  for (const name of config.tools ?? []) {
    if (!tools.has(name)) {
      throw new UsageError(`Invalid value for --tools: unknown tool ${JSON.stringify(name)}. Tools: ${[...tools.keys()].join(', ')}.`);
    }
  }
  const exposed = new Set(config.tools ?? (config.profile === 'compact' ? Object.keys(COMPACT_TOOLS) : tools.keys()));
  for (const [name, tool] of tools) {
    if (!exposed.has(name)) tool.remove();
    else if (config.profile === 'compact' && COMPACT_TOOLS[name]) tool.update({ description: COMPACT_TOOLS[name] });
  }
  return [...exposed];
}
