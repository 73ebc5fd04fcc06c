import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RUNTIME_KINDS } from '../../wire/contract.js';
import { packageFailureField } from './fields.js';
import { toolReply, ok, type ToolDeps } from './shared.js';

export const runtimeShape = z.object({
  python: z.string().describe('Python version, e.g. 3.14.2'),
  pyodide: z.string().describe('Pyodide version, e.g. 314.0.7'),
  distribution: z.enum(RUNTIME_KINDS).describe('Which bundled Pyodide distribution runs the session'),
  reason: z.string().describe('Why the server runs this distribution'),
});

export function registerCreateSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    'create_session',
    {
      title: 'Create a Python session',
      description:
        'Starts a new, empty Python session (its own interpreter and virtual filesystem). The preload packages are imported in the background: a cell that imports waits for them, others run at once. Variables, imports and files persist across execute_code calls in that session.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        session_id: z.string(),
        expires_at: z.string().describe('ISO time at which the session expires if unused'),
        runtime: runtimeShape,
        packages: z
          .record(z.string(), z.string())
          .describe('The preload set and its versions (imported in the background), without the modules of failed_packages'),
        failed_packages: z
          .array(packageFailureField)
          .describe(
            'Modules of the preload set that failed to load or import, with why: known when the session was preloaded before it was handed out; otherwise a cell that imports one reports it',
          ),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async () => {
      const { id, runtime, expiresAt, preload } = await deps.sessions.create();
      const failed = preload?.failed ?? [];
      const packages = Object.fromEntries(Object.entries(runtime.packages).filter(([name]) => !failed.some((f) => f.name === name)));
      return ok({
        session_id: id,
        expires_at: new Date(expiresAt).toISOString(),
        runtime: {
          python: runtime.python,
          pyodide: runtime.pyodide,
          distribution: runtime.kind,
          reason: deps.sessions.distribution.reason,
        },
        packages,
        failed_packages: failed,
      });
    }),
  );
}
