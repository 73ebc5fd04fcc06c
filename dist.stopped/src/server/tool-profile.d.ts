/**
 * Which tools a client sees: `--profile full` (every tool, the default), `--profile compact` (a small set with short
 * descriptions, for small context windows) and `--tools` (an explicit allow-list, which wins over the profile's set).
 * Every tool is registered first and the others are removed, so the tool modules know nothing of profiles.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
/** The compact profile: its tools, each with the shorter description it gets there. */
export declare const COMPACT_TOOLS: Record<string, string>;
/**
 * Runs `register` and returns every tool it registered, by name. Why the detour: the SDK's RegisteredTool does not
 * carry its name, and writing each name a second time here would be one fact in two places.
 */
export declare function recordTools(server: McpServer, register: () => void): Map<string, RegisteredTool>;
/**
 * Removes the tools the profile and --tools leave out; in the compact profile, shortens descriptions. Throws a
 * TypeError naming an unknown tool in --tools (the CLI exits with code 2 on it).
 */
export declare function applyToolProfile(tools: Map<string, RegisteredTool>, config: Pick<Config, 'profile' | 'tools'>): string[];
