/** register_tool and unregister_tool: a session function published as a tool of this server, and removed again. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { DynamicTools } from '../dynamic-tools.js';
import { checkedName } from '../namespace-reply.js';
import { dottedNameField, toolReply, ok, optionalArg, sessionIdField, type ToolDeps } from './shared.js';

export function registerRegisterToolTool(server: McpServer, deps: ToolDeps & { dynamicTools: DynamicTools }): RegisteredTool {
  return server.registerTool(
    'register_tool',
    {
      title: 'Publish a function as a tool',
      description:
        'Publishes a function of the session namespace as a new tool of this server: its input schema comes from the signature and ' +
        'annotations (int, float, str, bool, list, dict), its description from the docstring. Calling the tool calls the function in ' +
        'this session, with the same reply and limits as execute_code. The tool goes when the session closes, expires or is reset.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        function: dottedNameField,
        name: optionalArg(z.string().max(64), 'Tool name (default: the function name); letters, digits, _ and -'),
        description: optionalArg(z.string().max(1500), 'Tool description (default: the first paragraph of the docstring)'),
      }),
      outputSchema: z.object({
        name: z.string(),
        session_id: z.string(),
        function: z.string(),
        description: z.string(),
        parameters: z.array(z.string()).describe('Parameters of the tool (*args and **kwargs are not exposed)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, function: fn, name, description }, extra) => {
      checkedName(fn);
      const facts = await deps.sessions.namespace(
        session_id,
        { type: 'inspect_variable', name: fn, detail: false, text_chars: 2000 },
        extra.mcpReq.signal,
      );
      const registered = deps.dynamicTools.register(session_id, fn, facts, name ?? fn.split('.').pop()!, description);
      return ok(registered, `Registered tool ${registered.name}(${registered.parameters.join(', ')}) → ${fn} in session ${session_id}.`);
    }),
  );
}

export function registerUnregisterToolTool(server: McpServer, deps: ToolDeps & { dynamicTools: DynamicTools }): RegisteredTool {
  return server.registerTool(
    'unregister_tool',
    {
      title: 'Remove a published function',
      description: 'Removes a tool that register_tool published.',
      inputSchema: z.strictObject({ name: z.string().max(64).describe('Name of the registered tool') }),
      outputSchema: z.object({ name: z.string(), removed: z.literal(true) }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ name }) => {
      deps.dynamicTools.unregister(name);
      return ok({ name, removed: true as const });
    }),
  );
}
