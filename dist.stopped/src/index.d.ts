/**
 * pyodide-mcp as a library: sandboxed, stateful Python sessions in Pyodide, and the MCP server over them.
 * This module is the package's only entry point (package.json `exports`); everything else is internal.
 */
export { createSandbox, Sandbox, SandboxSession } from './api/sandbox.js';
export type { ExecuteOptions, ExecutionResult, FileEntry, FileRef, Figure, Progress, SessionRuntime, SessionSummary, } from './api/sandbox.js';
export type { SandboxOptions } from './api/options.js';
export { createMcpServer, type McpServerOptions } from './api/mcp-server.js';
export { PyodideMcpError, type ErrorCode } from './errors.js';
