/** inspect_variable: one object of the namespace in depth (resolved by name or dotted path, never evaluated). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { capInspection, checkedName } from '../namespace-reply.js';
import { variableShape } from './list-variables.js';
import { countField, dottedNameField, toolReply, ok, optionalArg, orNull, sessionIdField, type ToolDeps } from './shared.js';

export function registerInspectVariableTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'inspect_variable',
    {
      title: 'Inspect a variable',
      description:
        'Describes one object of the session namespace: type, repr, docstring, signature and parameters of callables, source where ' +
        'available; for DataFrames the columns with dtypes, head() and describe(); for arrays shape, dtype and min/max/mean. ' +
        '`name` may be a dotted path (df.columns, np.linalg.solve); it is looked up, never evaluated.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        name: dottedNameField,
        detail: optionalArg(z.boolean(), 'Also list public attributes, and the source of a module (default false)'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        ...variableShape,
        doc: orNull(z.string(), 'Docstring (functions, classes, modules)'),
        signature: orNull(z.string(), 'Signature of a callable'),
        parameters: orNull(
          z.array(
            z.object({
              name: z.string(),
              kind: z.string(),
              annotation: orNull(z.string(), 'The annotation as written'),
              default: orNull(z.string(), 'repr() of the default value'),
              required: z.boolean(),
            }),
          ),
          'Parameters of a callable',
        ),
        source: orNull(z.string(), 'Source code, where Python can find it'),
        length: orNull(countField(), 'len() of the value'),
        columns: orNull(z.array(z.object({ name: z.string(), dtype: z.string() })), 'DataFrame columns with their dtypes'),
        head: orNull(z.string(), 'head() of a DataFrame or Series'),
        describe: orNull(z.string(), 'describe() of a DataFrame or Series'),
        stats: orNull(
          z.object({
            min: orNull(z.number(), 'Smallest value (null when not finite)'),
            max: orNull(z.number(), 'Largest value (null when not finite)'),
            mean: orNull(z.number(), 'Mean (null when not finite)'),
          }),
          'min, max and mean of numeric data',
        ),
        attributes: orNull(z.array(z.string()), 'Public attribute names (with detail: true)'),
        truncated_chars: countField('Characters cut from long fields (repr, doc, source, head, describe …)'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, name, detail }, extra) => {
      const inspection = await sessions.namespace(
        session_id,
        { type: 'inspect_variable', name: checkedName(name), detail: detail ?? false, text_chars: config.limits.result },
        extra.mcpReq.signal,
      );
      return ok({ session_id, ...capInspection(inspection, config.limits.result, config.maxReplyBytes) });
    }),
  );
}
