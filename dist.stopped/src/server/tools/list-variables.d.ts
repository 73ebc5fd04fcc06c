/** list_variables: what the session's namespace holds (names, types, short reprs; shape and dtype of data). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type ToolDeps } from './shared.js';
export declare const variableShape: {
    name: z.ZodString;
    type: z.ZodString;
    kind: z.ZodEnum<{
        function: "function";
        variable: "variable";
        module: "module";
        class: "class";
    }>;
    repr: z.ZodString;
    shape: z.ZodUnion<readonly [z.ZodArray<z.ZodNumber>, z.ZodNull]>;
    dtype: z.ZodUnion<readonly [z.ZodString, z.ZodNull]>;
    size_bytes: z.ZodUnion<readonly [z.ZodNumber, z.ZodNull]>;
};
export declare function registerListVariablesTool(server: McpServer, deps: ToolDeps): RegisteredTool;
