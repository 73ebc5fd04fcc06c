/** call_function: calls a namespace function with JSON arguments; same reply, queue and limits as execute_code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { timeoutFor } from '../../sessions/input-checks.js';
import { executionOutputSchema, runCellAndReply } from '../execution-reply.js';
import { checkedName } from '../namespace-reply.js';
import { CELL_APP_TOOL_META } from '../../view/mcp-apps.js';
import { dottedNameField, toolReply, optionalArg, sessionIdField, timeoutField, type ToolDeps } from './shared.js';

export function registerCallFunctionTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { config } = deps;
  return server.registerTool(
    'call_function',
    {
      title: 'Call a function',
      description:
        'Calls a function (or any callable) of the session namespace with JSON arguments: args positionally, kwargs by keyword ' +
        '(as [{"name": "b", "value": 5}] pairs). ' +
        'Same reply as execute_code (result is the repr of the return value; stdout, figures, errors), same queue and time limits.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        name: dottedNameField,
        args: optionalArg(z.array(z.unknown()).max(10_000), 'Positional arguments, as JSON values (default none)'),
        // Pairs, not a JSON object: an object with free keys is an open schema, which strict function calling
        // (OpenAI Agents' convertSchemasToStrict) cannot take.
        kwargs: optionalArg(
          z.array(z.strictObject({ name: z.string().max(200), value: z.unknown() })).max(1000),
          'Keyword arguments as name/value pairs, e.g. [{"name": "b", "value": 5}] (default none)',
        ),
        timeout_seconds: timeoutField(config),
      }),
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      _meta: CELL_APP_TOOL_META,
    },
    toolReply(deps, async ({ session_id, name, args, kwargs, timeout_seconds }, extra) => {
      const call = checkedCall(name, args ?? [], keywordArguments(kwargs ?? []), config.maxCodeChars);
      return runCellAndReply(deps, session_id, { call }, timeoutFor(config, timeout_seconds), extra);
    }),
  );
}

/** kwargs pairs as the object the harness takes; a name given twice is refused, as Python would. */
function keywordArguments(pairs: { name: string; value?: unknown }[]): Record<string, unknown> {
  // No prototype: a keyword named __proto__ is a key like any other.
  const kwargs: Record<string, unknown> = Object.create(null);
  for (const { name, value } of pairs) {
    if (Object.hasOwn(kwargs, name)) {
      throw new PyodideMcpError('INVALID_INPUT', `kwargs names ${JSON.stringify(name)} twice; give each keyword argument once.`);
    }
    kwargs[name] = value ?? null;
  }
  return kwargs;
}

/** A call the session may be sent: a checked name, identifier keywords, arguments no larger than --max-code-chars. */
export function checkedCall(name: string, args: unknown[], kwargs: Record<string, unknown>, maxChars: number) {
  for (const key of Object.keys(kwargs)) checkedName(key, 'keyword argument', false);
  const size = JSON.stringify([args, kwargs]).length;
  if (size > maxChars) {
    throw new PyodideMcpError(
      'INVALID_INPUT',
      `The arguments are ${size} characters of JSON, more than the limit of ${maxChars} (--max-code-chars). Write large data to a file with write_file and pass its path.`,
    );
  }
  return { name: checkedName(name), args, kwargs };
}
