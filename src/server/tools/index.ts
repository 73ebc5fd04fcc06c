/**
 * Every built-in tool, once: its name, the function that registers it, and its short description when the compact
 * profile exposes it. The server registers from this list (src/server/server.ts), the profiles and `--tools` read it
 * (src/server/tool-profile.ts, src/server/config.ts), so adding a tool here is what makes it exist everywhere.
 * Each name must be the one its module registers (test/server/tools.test.ts compares them with tools/list).
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { DynamicTools } from '../dynamic-tools.js';
import { registerCallFunctionTool } from './call-function.js';
import { registerCloseSessionTool } from './close-session.js';
import { registerCreateSessionTool } from './create-session.js';
import { registerDeleteFileTool } from './delete-file.js';
import { registerDownloadFileTool } from './download-file.js';
import { registerExecuteCodeTool } from './execute-code.js';
import { registerExportNotebookTool } from './export-notebook.js';
import { registerInspectVariableTool } from './inspect-variable.js';
import { registerInstallPackagesTool } from './install-packages.js';
import { registerListFilesTool } from './list-files.js';
import { registerListPackagesTool } from './list-packages.js';
import { registerListSessionsTool } from './list-sessions.js';
import { registerListVariablesTool } from './list-variables.js';
import { registerReadFileTool } from './read-file.js';
import { registerRegisterToolTool, registerUnregisterToolTool } from './register-tool.js';
import { registerRemoveVariablesTool } from './remove-variables.js';
import { registerResetSessionTool } from './reset-session.js';
import { registerRunFileTool } from './run-file.js';
import { registerServerInfoTool } from './server-info.js';
import type { ToolDeps } from './shared.js';
import { registerUploadFileTool } from './upload-file.js';
import { registerWriteFileTool } from './write-file.js';

/** What a tool's register function may use: the common deps, plus what register_tool and server_info need. */
export type ServerToolDeps = ToolDeps & { dynamicTools: DynamicTools; version: string };

/** One built-in tool. */
export interface ToolEntry {
  name: string;
  register: (server: McpServer, deps: ServerToolDeps) => RegisteredTool;
  /** Its description in the compact profile; absent: the compact profile leaves it out. */
  compact?: string;
}

/** In the order tools/list shows them (and `--tools` lists them in its error). */
export const TOOLS = [
  { name: 'create_session', register: registerCreateSessionTool },
  {
    name: 'execute_code',
    register: registerExecuteCodeTool,
    compact: 'Run Python in a persistent session (omit session_id for a new one). Returns stdout, stderr, result, error, figures.',
  },
  { name: 'list_sessions', register: registerListSessionsTool },
  { name: 'close_session', register: registerCloseSessionTool },
  { name: 'list_packages', register: registerListPackagesTool },
  { name: 'install_packages', register: registerInstallPackagesTool },
  { name: 'list_files', register: registerListFilesTool, compact: "List a session's workspace files." },
  { name: 'read_file', register: registerReadFileTool, compact: 'Read a workspace file (text or base64, paged).' },
  { name: 'write_file', register: registerWriteFileTool, compact: 'Write a workspace file.' },
  { name: 'delete_file', register: registerDeleteFileTool },
  { name: 'run_file', register: registerRunFileTool },
  { name: 'upload_file', register: registerUploadFileTool },
  { name: 'download_file', register: registerDownloadFileTool },
  {
    name: 'list_variables',
    register: registerListVariablesTool,
    compact: "List the session's variables: type, short repr, shape/dtype of data.",
  },
  {
    name: 'inspect_variable',
    register: registerInspectVariableTool,
    compact: 'Describe one variable or dotted path: repr, doc, signature, columns, head, stats.',
  },
  { name: 'call_function', register: registerCallFunctionTool },
  { name: 'remove_variables', register: registerRemoveVariablesTool },
  {
    name: 'reset_session',
    register: registerResetSessionTool,
    compact: 'Clear the namespace (same session id; files kept unless clear_files).',
  },
  { name: 'export_notebook', register: registerExportNotebookTool },
  { name: 'register_tool', register: registerRegisterToolTool },
  { name: 'unregister_tool', register: registerUnregisterToolTool },
  { name: 'server_info', register: registerServerInfoTool },
] as const satisfies readonly ToolEntry[];

export type ToolName = (typeof TOOLS)[number]['name'];

/** Every built-in tool's name, in the order of TOOLS. */
export const TOOL_NAMES: readonly ToolName[] = TOOLS.map((tool) => tool.name);

/** The compact profile's tools, in the order of TOOLS. */
export const COMPACT_TOOL_NAMES: readonly ToolName[] = TOOLS.filter((tool: ToolEntry) => tool.compact !== undefined).map(
  (tool) => tool.name,
);
