/**
 * Functions of a session published as MCP tools (register_tool / unregister_tool). The input schema comes from the
 * function's signature and annotations, the description from its docstring; calling the tool calls the function in
 * its session exactly like call_function (queue, time limits, reply). A session's tools go when it ends or is reset;
 * every change reaches clients as notifications/tools/list_changed (the SDK sends it on register and remove).
 *
 * The registrations outlive any one McpServer: a 2025-era client has one server for its whole MCP session, but a
 * 2026-07-28 request over HTTP is served by a server built for that request alone (createMcpHandler), so the
 * registrations of the caller's tenant are mirrored onto every server attached (attach()), and a change is applied
 * to all of them and told through `onChange` (the 2026 `subscriptions/listen` streams).
 *
 * Security: the tool name, parameter names and annotations come from the session (untrusted): names are checked
 * against fixed patterns, and annotations only select among a few fixed schemas; nothing of them becomes code.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { IDENTIFIER, type Parameter } from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import { executionOutputSchema, runCellAndReply } from './execution-reply.js';
import { checkedCall } from './tools/call-function.js';
import { CELL_APP_TOOL_META } from '../view/mcp-apps.js';
import { toolReply, optionalArg, orNull, type ToolDeps } from './tools/shared.js';

/** What a registered tool may be called. */
export const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
/** Most tools registered at once, over all sessions: each one costs every client context on every tools/list. */
export const MAX_REGISTERED_TOOLS = 32;
/** Most parameters a registered function may have. */
const MAX_PARAMETERS = 64;
const MAX_DESCRIPTION_CHARS = 1500;

interface Registration {
  name: string;
  sessionId: string;
  function: string;
  /** Registers the tool on one server. */
  install: (server: McpServer) => RegisteredTool;
}

/** What register_tool needs to know of the function, from inspect_variable. */
export interface FunctionFacts {
  kind: string;
  type: string;
  doc: string | null;
  signature: string | null;
  parameters: Parameter[] | null;
}

export class DynamicTools {
  private readonly registered = new Map<string, Registration>();
  /** The servers the registrations are mirrored on, each with its handles of them. */
  private readonly servers = new Map<McpServer, Map<string, RegisteredTool>>();

  constructor(
    private readonly deps: ToolDeps,
    /** Names of the server's own tools (exposed or not): never shadowed. */
    private readonly builtinNames: ReadonlySet<string>,
    /** Told after every change of the registered set (beyond the SDK's own list_changed on each attached server). */
    private readonly onChange: () => void = () => {},
  ) {
    deps.sessions.onNamespaceGone((id) => this.removeSession(id));
  }

  /** Mirrors every registration onto `server` from now on; returns what stops it (the server is done). */
  attach(server: McpServer): () => void {
    const handles = new Map<string, RegisteredTool>();
    for (const registration of this.registered.values()) handles.set(registration.name, registration.install(server));
    this.servers.set(server, handles);
    return () => void this.servers.delete(server);
  }

  /** Publishes `fn` of session `sessionId` as tool `name`; replaces the session's own earlier tool of that name. */
  register(sessionId: string, fn: string, facts: FunctionFacts, name: string, description: string | undefined) {
    if (!TOOL_NAME.test(name)) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `Tool name ${JSON.stringify(name.slice(0, 80))} is not allowed: use 1 to 64 letters, digits, _ or -, starting with a letter or _.`,
      );
    }
    // Security: names that differ only by case, - versus _ or repeated _ read as one name to a model (and to some
    // clients, which normalize them): such a name could pass for a built-in tool or for another session's tool.
    const folded = foldToolName(name);
    const builtin = [...this.builtinNames].find((other) => foldToolName(other) === folded);
    if (builtin !== undefined) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `${name} ${builtin === name ? 'is' : `reads as ${builtin}, which is`} a built-in tool of this server (names are compared ignoring case, - versus _ and repeated _); pass another name.`,
      );
    }
    const existing = this.registered.get(name);
    if (existing && existing.sessionId !== sessionId) {
      throw new PyodideMcpError('INVALID_INPUT', `A tool named ${name} is already registered by another session; pass another name.`);
    }
    const clash = [...this.registered.keys()].find((other) => other !== name && foldToolName(other) === folded);
    if (clash !== undefined) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `${name} reads as the registered tool ${clash} (names are compared ignoring case, - versus _ and repeated _); pass another name${this.registered.get(clash)!.sessionId === sessionId ? `, or unregister_tool ${clash} first` : ''}.`,
      );
    }
    if (!existing && this.registered.size >= MAX_REGISTERED_TOOLS) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `${MAX_REGISTERED_TOOLS} tools are already registered, the most this server keeps; unregister_tool one first.`,
      );
    }
    if (facts.kind !== 'function' && facts.kind !== 'class') {
      throw new PyodideMcpError('NOT_CALLABLE', `${fn} is not callable (it is a ${facts.type}); register a function.`);
    }
    if (facts.parameters === null) {
      throw new PyodideMcpError(
        'INVALID_INPUT',
        `Python cannot tell the signature of ${fn}, so no input schema can be made; wrap it in a def with named parameters.`,
      );
    }
    const parameters = facts.parameters.filter((p) => p.kind !== 'VAR_POSITIONAL' && p.kind !== 'VAR_KEYWORD');
    if (parameters.length > MAX_PARAMETERS) {
      throw new PyodideMcpError('INVALID_INPUT', `${fn} has ${parameters.length} parameters, more than ${MAX_PARAMETERS}.`);
    }
    for (const p of parameters) {
      if (!IDENTIFIER.test(p.name)) throw new PyodideMcpError('INVALID_INPUT', `${fn} has a parameter that is not an identifier.`);
      // A JSON object cannot carry it as a key of its own (parsers make it the prototype), so no call could pass it.
      if (p.name === '__proto__')
        throw new PyodideMcpError('INVALID_INPUT', `${fn} has a parameter named __proto__, which a JSON tool call cannot pass; rename it.`);
    }
    const shape = Object.fromEntries(parameters.map((p) => [p.name, ownKey(p.name, parameterSchema(p))]));
    const text = (description ?? firstParagraph(facts.doc) ?? `Calls ${fn}${facts.signature ?? '()'}.`).slice(0, MAX_DESCRIPTION_CHARS);
    const { config } = this.deps;
    const install = (server: McpServer) =>
      server.registerTool(
        name,
        {
          title: `${fn} (session function)`,
          description: `${text}\n\nRuns ${fn}${(facts.signature ?? '').slice(0, 300)} in Python session ${sessionId}; same reply as execute_code.`,
          inputSchema: z.strictObject(shape),
          outputSchema: config.structuredContent ? executionOutputSchema : undefined,
          annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
          // A call runs a cell like call_function: MCP Apps hosts show its result as one (src/view/mcp-apps.ts).
          _meta: CELL_APP_TOOL_META,
        },
        toolReply(this.deps, async (input: Record<string, unknown>, extra) => {
          const args: unknown[] = [];
          // No prototype, and own keys only: a parameter named constructor or toString is not Object.prototype's.
          const kwargs: Record<string, unknown> = Object.create(null);
          for (const p of parameters) {
            const value = Object.hasOwn(input, p.name) ? input[p.name] : undefined;
            if (value === undefined) continue;
            if (p.kind === 'POSITIONAL_ONLY') args.push(value);
            else kwargs[p.name] = value;
          }
          const call = checkedCall(fn, args, kwargs, config.maxCodeChars);
          return runCellAndReply(this.deps, sessionId, { call }, config.defaultTimeoutMs, extra);
        }),
      );
    for (const [server, handles] of this.servers) {
      handles.get(name)?.remove();
      handles.set(name, install(server));
    }
    this.registered.set(name, { name, sessionId, function: fn, install });
    this.onChange();
    return { name, session_id: sessionId, function: fn, description: text, parameters: parameters.map((p) => p.name) };
  }

  /** Removes a registered tool; built-in and unknown names are errors that say so. */
  unregister(name: string): void {
    const registration = this.registered.get(name);
    if (!registration) {
      if (this.builtinNames.has(name)) throw new PyodideMcpError('INVALID_INPUT', `${name} is a built-in tool and cannot be unregistered.`);
      const known = [...this.registered.keys()];
      throw new PyodideMcpError(
        'TOOL_NOT_FOUND',
        `No registered tool is named ${JSON.stringify(name.slice(0, 80))}. ${known.length > 0 ? `Registered: ${known.join(', ')}.` : 'None is registered.'}`,
      );
    }
    this.registered.delete(name);
    for (const handles of this.servers.values()) {
      handles.get(name)?.remove();
      handles.delete(name);
    }
    this.onChange();
  }

  /** The session's tools go with it (closed, expired, dead) or with its namespace (reset). */
  removeSession(sessionId: string): void {
    for (const registration of [...this.registered.values()]) {
      if (registration.sessionId === sessionId) this.unregister(registration.name);
    }
  }

  list() {
    return [...this.registered.values()].map((r) => ({ name: r.name, session_id: r.sessionId, function: r.function }));
  }
}

/**
 * How tool names are compared: case folded, - as _, repeated _ as one. `Execute_Code`, `execute-code` and
 * `execute__code` all read as `execute_code`.
 */
export function foldToolName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_').replace(/_+/g, '_');
}

/**
 * A parameter's schema, for a name that Object.prototype also has (constructor, toString, hasOwnProperty…): the
 * arguments object of a call is a plain object, so zod would read the inherited function when the argument is left
 * out (and refuse it, or pass it on). JSON never holds a function: one seen here is the prototype's, i.e. no value.
 */
function ownKey(name: string, schema: z.ZodType): z.ZodType {
  return name in Object.prototype ? z.preprocess((value) => (typeof value === 'function' ? undefined : value), schema) : schema;
}

/** A parameter's schema: a few annotations map to JSON types, anything else takes any JSON value. */
function parameterSchema(p: Parameter) {
  const annotation = (p.annotation ?? '').replace(/\s/g, '');
  const optional = /^(Optional\[(.*)\]|(.*)\|None|None\|(.*))$/.exec(annotation);
  const base = optional ? (optional[2] ?? optional[3] ?? optional[4] ?? '') : annotation;
  let schema: z.ZodType =
    base === 'int'
      ? // zod states ±2^53 as an integer's bounds; Python's int has none.
        z.number().int().meta({ minimum: undefined, maximum: undefined })
      : base === 'float'
        ? z.number()
        : base === 'str'
          ? z.string()
          : base === 'bool'
            ? z.boolean()
            : /^(list|List|tuple|Tuple|Sequence)(\[.*\])?$/.test(base)
              ? z.array(z.unknown())
              : /^(dict|Dict|Mapping)(\[.*\])?$/.test(base)
                ? z.record(z.string(), z.unknown())
                : z.unknown();
  const described = [
    p.annotation ? `${p.annotation.slice(0, 100)}` : null,
    p.default !== null ? `default ${p.default.slice(0, 100)}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const description = described || p.name;
  // `Optional[T]` accepts None: null is a value here (anyOf, see orNull), not "not given".
  if (optional) schema = orNull(schema, description);
  return p.required ? schema.describe(description) : optionalArg(schema, description);
}

function firstParagraph(doc: string | null): string | undefined {
  const text = doc
    ?.trim()
    .split(/\n\s*\n/)[0]
    ?.trim();
  return text ? text : undefined;
}
