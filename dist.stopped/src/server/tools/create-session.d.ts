import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type ToolDeps } from './shared.js';
export declare const runtimeShape: z.ZodObject<{
    python: z.ZodString;
    pyodide: z.ZodString;
    distribution: z.ZodEnum<{
        modern: "modern";
        legacy: "legacy";
    }>;
    reason: z.ZodString;
}, z.core.$strip>;
export declare function registerCreateSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool;
