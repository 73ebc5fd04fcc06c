/**
 * Which tools a client sees: `--profile full` (every tool, the default), `--profile compact` (a small set with short
 * descriptions, for small context windows) and `--tools` (an explicit allow-list, which wins over the profile's set).
 * Every tool is registered first and the others are removed, so the tool modules know nothing of profiles. Which
 * tools exist and which are compact is the tool index's to say (tools/index.ts); `--tools` names were checked
 * against it when the configuration was built (config.ts).
 */
import type { RegisteredTool } from '@modelcontextprotocol/server';
import type { Config } from './config.js';
import { COMPACT_TOOL_NAMES, TOOLS, type ToolEntry } from './tools/index.js';

/** Removes the tools the profile and --tools leave out; in the compact profile, shortens descriptions. */
export function applyToolProfile(tools: Map<string, RegisteredTool>, config: Pick<Config, 'profile' | 'tools'>): void {
  const exposed = new Set<string>(config.tools ?? (config.profile === 'compact' ? COMPACT_TOOL_NAMES : tools.keys()));
  const short = new Map(TOOLS.map((tool: ToolEntry) => [tool.name, tool.compact]));
  for (const [name, tool] of tools) {
    if (!exposed.has(name)) tool.remove();
    else if (config.profile === 'compact' && short.get(name)) tool.update({ description: short.get(name) });
  }
}
