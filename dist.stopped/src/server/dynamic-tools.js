import { z } from 'zod';
import { IDENTIFIER } from '../contract.js';
import { PyodideMcpError } from '../errors.js';
import { executionOutputShape, runWithProgress } from './execution-reply.js';
import { checkedCall } from './tools/call-function.js';
import { guarded, optionalArg, orNull } from './tools/shared.js';
/** What a registered tool may be called. */
export const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
/** Most tools registered at once, over all sessions: each one costs every client context on every tools/list. */
export const MAX_REGISTERED_TOOLS = 32;
/** Most parameters a registered function may have. */
const MAX_PARAMETERS = 64;
const MAX_DESCRIPTION_CHARS = 1500;
export class DynamicTools {
    server;
    deps;
    builtinNames;
    registered = new Map();
    constructor(server, deps, 
    /** Names of the server's own tools (exposed or not): never shadowed. */
    builtinNames) {
        this.server = server;
        this.deps = deps;
        this.builtinNames = builtinNames;
        deps.sessions.onNamespaceGone((id) => this.removeSession(id));
    }
    /** Publishes `fn` of session `sessionId` as tool `name`; replaces the session's own earlier tool of that name. */
    register(sessionId, fn, facts, name, description) {
        if (!TOOL_NAME.test(name)) {
            throw new PyodideMcpError('INVALID_INPUT', `Tool name ${JSON.stringify(name.slice(0, 80))} is not allowed: use 1 to 64 letters, digits, _ or -, starting with a letter or _.`);
        }
        if (this.builtinNames.has(name)) {
            throw new PyodideMcpError('INVALID_INPUT', `${name} is a built-in tool of this server; pass another name.`);
        }
        const existing = this.registered.get(name);
        if (existing && existing.sessionId !== sessionId) {
            throw new PyodideMcpError('INVALID_INPUT', `A tool named ${name} is already registered by another session; pass another name.`);
        }
        if (!existing && this.registered.size >= MAX_REGISTERED_TOOLS) {
            throw new PyodideMcpError('INVALID_INPUT', `${MAX_REGISTERED_TOOLS} tools are already registered, the most this server keeps; unregister_tool one first.`);
        }
        if (facts.kind !== 'function' && facts.kind !== 'class') {
            throw new PyodideMcpError('NOT_CALLABLE', `${fn} is not callable (it is a ${facts.type}); register a function.`);
        }
        if (facts.parameters === null) {
            throw new PyodideMcpError('INVALID_INPUT', `Python cannot tell the signature of ${fn}, so no input schema can be made; wrap it in a def with named parameters.`);
        }
        const parameters = facts.parameters.filter((p) => p.kind !== 'VAR_POSITIONAL' && p.kind !== 'VAR_KEYWORD');
        if (parameters.length > MAX_PARAMETERS) {
            throw new PyodideMcpError('INVALID_INPUT', `${fn} has ${parameters.length} parameters, more than ${MAX_PARAMETERS}.`);
        }
        for (const p of parameters) {
            if (!IDENTIFIER.test(p.name))
                throw new PyodideMcpError('INVALID_INPUT', `${fn} has a parameter that is not an identifier.`);
        }
        const shape = Object.fromEntries(parameters.map((p) => [p.name, parameterSchema(p)]));
        const text = (description ?? firstParagraph(facts.doc) ?? `Calls ${fn}${facts.signature ?? '()'}.`).slice(0, MAX_DESCRIPTION_CHARS);
        existing?.tool.remove();
        const { config } = this.deps;
        const tool = this.server.registerTool(name, {
            title: `${fn} (session function)`,
            description: `${text}\n\nRuns ${fn}${(facts.signature ?? '').slice(0, 300)} in Python session ${sessionId}; same reply as execute_code.`,
            inputSchema: z.strictObject(shape),
            outputSchema: config.structuredContent ? executionOutputShape : undefined,
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
        }, guarded(this.deps, async (input, extra) => {
            const args = [];
            const kwargs = {};
            for (const p of parameters) {
                const value = input[p.name];
                if (value === undefined)
                    continue;
                if (p.kind === 'POSITIONAL_ONLY')
                    args.push(value);
                else
                    kwargs[p.name] = value;
            }
            const call = checkedCall(fn, args, kwargs, config.maxCodeChars);
            return runWithProgress(this.deps, sessionId, { call }, config.defaultTimeoutMs, extra);
        }, { restore: false }));
        this.registered.set(name, { name, sessionId, function: fn, tool });
        return { name, session_id: sessionId, function: fn, description: text, parameters: parameters.map((p) => p.name) };
    }
    /** Removes a registered tool; built-in and unknown names are errors that say so. */
    unregister(name) {
        const registration = this.registered.get(name);
        if (!registration) {
            if (this.builtinNames.has(name))
                throw new PyodideMcpError('INVALID_INPUT', `${name} is a built-in tool and cannot be unregistered.`);
            const known = [...this.registered.keys()];
            throw new PyodideMcpError('TOOL_NOT_FOUND', `No registered tool is named ${JSON.stringify(name.slice(0, 80))}. ${known.length > 0 ? `Registered: ${known.join(', ')}.` : 'None is registered.'}`);
        }
        this.registered.delete(name);
        registration.tool.remove();
    }
    /** The session's tools go with it (closed, expired, dead) or with its namespace (reset). */
    removeSession(sessionId) {
        for (const registration of [...this.registered.values()]) {
            if (registration.sessionId === sessionId)
                this.unregister(registration.name);
        }
    }
    list() {
        return [...this.registered.values()].map((r) => ({ name: r.name, session_id: r.sessionId, function: r.function }));
    }
}
/** A parameter's schema: a few annotations map to JSON types, anything else takes any JSON value. */
function parameterSchema(p) {
    const annotation = (p.annotation ?? '').replace(/\s/g, '');
    const optional = /^(Optional\[(.*)\]|(.*)\|None|None\|(.*))$/.exec(annotation);
    const base = optional ? (optional[2] ?? optional[3] ?? optional[4] ?? '') : annotation;
    let schema = base === 'int'
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
    if (optional)
        schema = orNull(schema, description);
    return p.required ? schema.describe(description) : optionalArg(schema, description);
}
function firstParagraph(doc) {
    const text = doc
        ?.trim()
        .split(/\n\s*\n/)[0]
        ?.trim();
    return text ? text : undefined;
}
