/**
 * Schema pieces the tools share, shaped for what agent frameworks' MCP clients accept: optional parameters that
 * take null, nullable results as `anyOf`, counts without fake bounds.
 */
import { z } from 'zod';
/**
 * An optional parameter that also accepts null, read as absent. Models send null for "not given", and some clients
 * (LangChain.js) validate arguments against the input schema before the call, so null must be declared:
 * `anyOf: [T, {type: "null"}]`, not required. The description sits on the non-null branch, which keeps the `anyOf`
 * form (see orNull).
 */
export declare function optionalArg<T extends z.ZodType>(schema: T, description: string): z.ZodPipe<z.ZodOptional<z.ZodNullable<T>>, z.ZodTransform<Awaited<NonNullable<z.core.output<T>>> | undefined, z.core.output<T> | null | undefined>>;
/**
 * A result field that may be null. The description sits on the non-null branch: zod folds a union of two bare
 * types into `type: [T, "null"]`, which strict validators (the MCP Inspector's `--strict`) flag; a described
 * branch keeps the `anyOf` form.
 */
export declare function orNull<T extends z.ZodType>(schema: T, description: string): z.ZodUnion<readonly [T, z.ZodNull]>;
/**
 * A non-negative integer with no upper bound of its own. zod's `int()` states ±2^53 as bounds, which says nothing
 * and reads like a real limit; where a real limit exists, use `.max()` instead.
 */
export declare function countField(description?: string): z.ZodNumber;
/** timeout_seconds of execute_code and run_file: optional, at most --max-timeout. */
export declare function timeoutField(config: {
    defaultTimeoutMs: number;
    maxTimeoutMs: number;
}): z.ZodPipe<z.ZodOptional<z.ZodNullable<z.ZodNumber>>, z.ZodTransform<number | undefined, number | null | undefined>>;
/** A session id as tools accept it; content is checked by the session manager. */
export declare const sessionIdField: z.ZodString;
/** A path in the session workspace, as file tools accept it. */
export declare const pathField: z.ZodString;
/** A namespace name or dotted path, as the namespace tools accept it; checked by `checkedName`. */
export declare const dottedNameField: z.ZodString;
