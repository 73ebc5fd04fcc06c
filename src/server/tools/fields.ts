/**
 * Schema pieces the tools share, shaped for what agent frameworks' MCP clients accept: optional parameters that
 * take null, nullable results as `anyOf`, counts without fake bounds.
 */
import { z } from 'zod';
import { MAX_LOAD_REASON_BYTES } from '../../wire/load-reasons.js';

/**
 * An optional parameter that also accepts null, read as absent. Models send null for "not given", and some clients
 * (LangChain.js) validate arguments against the input schema before the call, so null must be declared:
 * `anyOf: [T, {type: "null"}]`, not required. The description sits on the non-null branch, which keeps the `anyOf`
 * form (see orNull).
 */
export function optionalArg<T extends z.ZodType>(schema: T, description: string) {
  return schema
    .describe(description)
    .nullish()
    .transform((value) => value ?? undefined);
}

/**
 * A result field that may be null. The description sits on the non-null branch: zod folds a union of two bare
 * types into `type: [T, "null"]`, which strict validators (the MCP Inspector's `--strict`) flag; a described
 * branch keeps the `anyOf` form.
 */
export function orNull<T extends z.ZodType>(schema: T, description: string) {
  return z.union([schema.describe(description), z.null()]);
}

/**
 * A non-negative integer with no upper bound of its own. zod's `int()` states ±2^53 as bounds, which says nothing
 * and reads like a real limit; where a real limit exists, use `.max()` instead.
 */
export function countField(description?: string) {
  const schema = z.number().int().min(0).meta({ maximum: undefined });
  return description ? schema.describe(description) : schema;
}

/** timeout_seconds of execute_code and run_file: optional, at most --max-timeout. */
export function timeoutField(config: { defaultTimeoutMs: number; maxTimeoutMs: number }) {
  const max = config.maxTimeoutMs / 1000;
  return optionalArg(
    z.number().positive().max(max, `above the server's limit of ${max} s (--max-timeout); pass a smaller timeout_seconds`),
    `Time limit in seconds (default ${config.defaultTimeoutMs / 1000}, at most ${max})`,
  );
}

/**
 * The HTTP header a 2026-07-28 client mirrors session_id into (SEP-2243: `x-mcp-header` makes it send
 * `Mcp-Param-Session`), so a proxy can route a call to the instance holding the session from the headers alone; the
 * server checks the header against the body (createMcpHandler, HTTP 400 / -32020 when they disagree). The SDK accepts
 * the mark only on a property reached through `properties` with `type` string, integer or boolean (not under anyOf),
 * and a v2 client drops a tool whose mark is not valid: hence the plain string schemas below.
 */
export const SESSION_HEADER = 'Session';

/** A session id as tools accept it; content is checked by the session manager. */
export const sessionIdField = z
  .string()
  .max(200)
  .describe('The session_id returned by create_session or execute_code.')
  .meta({ 'x-mcp-header': SESSION_HEADER });

/**
 * An optional session id (execute_code, list_packages): declared as a plain string, not `anyOf [string, null]` (the
 * routing mark needs a plain type); "" and omission mean "none". null is still accepted by the server, read as
 * omitted, for the clients that send null for "not given" without checking it against the schema.
 */
export function optionalSessionIdField(description: string) {
  return z
    .preprocess((value) => (value === null ? undefined : value), z.string().max(200).optional())
    .describe(description)
    .meta({ 'x-mcp-header': SESSION_HEADER });
}

/** A path in the session workspace, as file tools accept it. */
export const pathField = z
  .string()
  .max(4096)
  .describe('Path in the session workspace, relative (e.g. "data/input.csv") or under /workspace');

/** A namespace name or dotted path, as the namespace tools accept it; checked by `checkedName`. */
export const dottedNameField = z
  .string()
  .max(500)
  .describe(
    'A name in the session namespace, or a dotted path of attributes (e.g. "df", "df.columns", "np.linalg.solve"); never evaluated as code',
  );

/** A package that failed to load, as execute_code, install_packages and create_session report it. */
export const packageFailureField = z.object({
  name: z.string().describe('The package (or, for create_session, the preloaded module) that did not load'),
  reason: z
    .string()
    .max(MAX_LOAD_REASON_BYTES)
    .describe(`Why, in the loader's own words (at most ${MAX_LOAD_REASON_BYTES} bytes of UTF-8)`),
});
