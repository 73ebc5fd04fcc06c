/** list_variables: what the session's namespace holds (names, types, short reprs; shape and dtype of data). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { VARIABLE_KINDS } from '../../wire/contract.js';
import { capListing, MAX_LISTED, SHORT_CHARS } from '../namespace-reply.js';
import { countField, toolReply, ok, optionalArg, orNull, sessionIdField, type ToolDeps } from './shared.js';

export const variableShape = {
  name: z.string(),
  type: z.string().describe('Type of the value, e.g. int, pandas.core.frame.DataFrame'),
  kind: z.enum(VARIABLE_KINDS).describe('variable, module, function or class'),
  repr: z.string().describe('Short one-line repr'),
  shape: orNull(z.array(z.number()), 'Shape of an array, DataFrame or Series'),
  dtype: orNull(z.string(), 'dtype of an array or Series; the distinct dtypes of a DataFrame'),
  size_bytes: orNull(countField(), 'Memory of an array, DataFrame or Series (shallow), in bytes'),
};

export function registerListVariablesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'list_variables',
    {
      title: 'List variables',
      description:
        "Lists the names defined in a session's namespace: type, kind (variable, module, function, class), a short repr, and for " +
        'arrays, DataFrames and Series their shape, dtype and memory. Names starting with _ are hidden. Runs after the code queued before it.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        filter: optionalArg(z.string().max(200), 'Only names containing this text (case-insensitive), or a glob like "df_*"'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        variables: z.array(z.object(variableShape)),
        total: countField('Names that matched'),
        omitted: countField('Matching names left out to keep the reply bounded; narrow the filter to see them'),
        truncated_chars: countField('Characters cut from long names, types or reprs'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, filter }, extra) => {
      const listing = await sessions.namespace(
        session_id,
        { type: 'list_variables', filter: filter ?? null, max_items: MAX_LISTED, repr_chars: SHORT_CHARS },
        extra.mcpReq.signal,
      );
      const reply = { session_id, ...capListing(listing, config.maxReplyBytes) };
      const lines = reply.variables.map((v) => {
        const data = v.shape ? ` shape=${JSON.stringify(v.shape)} dtype=${v.dtype} bytes=${v.size_bytes}` : '';
        return `${v.name}: ${v.type}${data} = ${v.repr}`;
      });
      if (lines.length === 0) lines.push(filter ? `No variable matches ${JSON.stringify(filter)}.` : 'The namespace is empty.');
      if (reply.omitted > 0) lines.push(`(${reply.omitted} more not shown; pass a filter to narrow the list)`);
      return ok(reply, lines.join('\n'));
    }),
  );
}
