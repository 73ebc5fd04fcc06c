/**
 * The one wire contract of a session: every message between the server, a session process, its worker thread
 * and the harness, as zod schemas with the TypeScript types inferred from them. Both sides import this module;
 * the receiving side of an untrusted boundary (server ← session process, supervisor ← worker) parses every
 * message with these schemas, so a message that is not in the contract is never acted on.
 *
 * Data flow of one request: server `SessionChannel.request(op)` → (frame over a pipe, or a direct call in thread
 * isolation) → `Supervisor` → worker `postMessage` → harness (JSON text) and back. The supervisor answers
 * `read_file` itself from its copy of the session's files; every other op is relayed to the worker.
 */
import { z } from 'zod';
export { WORKSPACE } from './paths.js';
/** Pyodide distributions a worker can boot. */
export declare const RUNTIME_KINDS: readonly ["modern", "legacy"];
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];
/** Where a session's worker thread lives (see src/sessions/spawn.ts). */
export declare const ISOLATIONS: readonly ["process", "thread"];
export type Isolation = (typeof ISOLATIONS)[number];
export { MAX_LOG_CHARS } from './wire-limits.js';
/** A workspace-relative path: no NUL, not absolute, never `..`. */
export declare const workspacePath: z.ZodString;
export declare const fileLimitsSchema: z.ZodObject<{
    maxFileBytes: z.ZodNumber;
    maxSessionBytes: z.ZodNumber;
    maxFiles: z.ZodNumber;
}, z.core.$strip>;
/** Per-session caps on the virtual filesystem. */
export type FileLimits = z.infer<typeof fileLimitsSchema>;
export declare const outputLimitsSchema: z.ZodObject<{
    stdout: z.ZodNumber;
    stderr: z.ZodNumber;
    result: z.ZodNumber;
    traceback: z.ZodNumber;
}, z.core.$strip>;
/** Per-call caps on what a reply may carry, in characters. */
export type OutputLimits = z.infer<typeof outputLimitsSchema>;
export declare const runtimeInfoSchema: z.ZodObject<{
    kind: z.ZodEnum<{
        modern: "modern";
        legacy: "legacy";
    }>;
    python: z.ZodString;
    pyodide: z.ZodString;
    packages: z.ZodRecord<z.ZodString, z.ZodString>;
    available: z.ZodArray<z.ZodString>;
    interruptible: z.ZodBoolean;
    bootMs: z.ZodNumber;
}, z.core.$strip>;
/** What the worker knows about its runtime once booted. */
export type RuntimeInfo = z.infer<typeof runtimeInfoSchema>;
export declare const wireErrorSchema: z.ZodObject<{
    code: z.ZodString;
    message: z.ZodString;
}, z.core.$strip>;
/** An error as it travels across the boundary: plain data, never a class instance. */
export type WireError = z.infer<typeof wireErrorSchema>;
/** A file as the server knows it: metadata only (contents stay with the session, read on demand). */
export declare const fileStatSchema: z.ZodObject<{
    path: z.ZodString;
    size: z.ZodNumber;
    mtimeMs: z.ZodNumber;
}, z.core.$strip>;
export type FileStat = z.infer<typeof fileStatSchema>;
/** What one request did to the workspace, as the server sees it (no bytes). */
export declare const fileChangesSchema: z.ZodObject<{
    written: z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        size: z.ZodNumber;
        mtimeMs: z.ZodNumber;
    }, z.core.$strip>>;
    deleted: z.ZodArray<z.ZodString>;
}, z.core.$strip>;
export type FileChanges = z.infer<typeof fileChangesSchema>;
/** What one request did to the workspace, as the worker reports it to its supervisor (with the bytes). */
export declare const workerFileChangesSchema: z.ZodObject<{
    written: z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        size: z.ZodNumber;
        mtimeMs: z.ZodNumber;
        data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
    }, z.core.$strip>>;
    deleted: z.ZodArray<z.ZodString>;
    violation: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type WorkerFileChanges = z.infer<typeof workerFileChangesSchema>;
export declare const displayOutputSchema: z.ZodObject<{
    mime_type: z.ZodString;
    path: z.ZodOptional<z.ZodString>;
    text: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
/** A rich output of a cell (IPython display protocol): an image file in the workspace, or text. */
export type DisplayOutput = z.infer<typeof displayOutputSchema>;
/** Fields the host may cut, with the characters it left out. */
export declare const TRUNCATABLE: readonly ["stdout", "stderr", "result", "traceback", "error", "display"];
export declare const truncationSchema: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
    error: "error";
    stdout: "stdout";
    stderr: "stderr";
    result: "result";
    traceback: "traceback";
    display: "display";
}> & z.core.$partial, z.ZodNumber>>;
/** Characters left out of each capped field; null when nothing was cut. */
export type Truncation = z.infer<typeof truncationSchema>;
export declare const cellOutcomeSchema: z.ZodObject<{
    stdout: z.ZodString;
    stderr: z.ZodString;
    result: z.ZodNullable<z.ZodString>;
    error: z.ZodNullable<z.ZodObject<{
        type: z.ZodString;
        message: z.ZodString;
        traceback: z.ZodString;
    }, z.core.$strip>>;
    execution_count: z.ZodNumber;
    truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
        error: "error";
        stdout: "stdout";
        stderr: "stderr";
        result: "result";
        traceback: "traceback";
        display: "display";
    }> & z.core.$partial, z.ZodNumber>>;
    loaded_packages: z.ZodArray<z.ZodString>;
    display: z.ZodArray<z.ZodObject<{
        mime_type: z.ZodString;
        path: z.ZodOptional<z.ZodString>;
        text: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>;
    changes: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
}, z.core.$strip>;
/** The answer to an `execute` / `run_file` request (the server adds session id, timing, file references). */
export type CellOutcome = z.infer<typeof cellOutcomeSchema>;
/** A cell outcome with nothing in it (a cell whose session ended before it could answer). */
export declare function emptyOutcome(executionCount: number): CellOutcome;
export declare const workerCellOutcomeSchema: z.ZodObject<{
    stdout: z.ZodString;
    stderr: z.ZodString;
    result: z.ZodNullable<z.ZodString>;
    error: z.ZodNullable<z.ZodObject<{
        type: z.ZodString;
        message: z.ZodString;
        traceback: z.ZodString;
    }, z.core.$strip>>;
    execution_count: z.ZodNumber;
    truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
        error: "error";
        stdout: "stdout";
        stderr: "stderr";
        result: "result";
        traceback: "traceback";
        display: "display";
    }> & z.core.$partial, z.ZodNumber>>;
    loaded_packages: z.ZodArray<z.ZodString>;
    display: z.ZodArray<z.ZodObject<{
        mime_type: z.ZodString;
        path: z.ZodOptional<z.ZodString>;
        text: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>;
    changes: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
            data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
        violation: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>;
}, z.core.$strip>;
export type WorkerCellOutcome = z.infer<typeof workerCellOutcomeSchema>;
export declare const packageListingSchema: z.ZodObject<{
    loaded: z.ZodRecord<z.ZodString, z.ZodString>;
    available: z.ZodArray<z.ZodString>;
}, z.core.$strip>;
/** Packages of a session: loaded ones with versions, and those that could be loaded offline. */
export type PackageListing = z.infer<typeof packageListingSchema>;
/** A name in the namespace, or a dotted path of attributes (`df.columns`, `np.linalg.solve`): resolved with getattr only. */
export declare const DOTTED_NAME: RegExp;
/** A top-level name of the namespace. */
export declare const IDENTIFIER: RegExp;
/** What kind of thing a name holds. */
export declare const VARIABLE_KINDS: readonly ["variable", "module", "function", "class"];
export declare const variableSchema: z.ZodObject<{
    shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
    dtype: z.ZodNullable<z.ZodString>;
    size_bytes: z.ZodNullable<z.ZodNumber>;
    name: z.ZodString;
    type: z.ZodString;
    kind: z.ZodEnum<{
        function: "function";
        variable: "variable";
        module: "module";
        class: "class";
    }>;
    repr: z.ZodString;
}, z.core.$strip>;
export type Variable = z.infer<typeof variableSchema>;
export declare const variableListingSchema: z.ZodObject<{
    variables: z.ZodArray<z.ZodObject<{
        shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
        dtype: z.ZodNullable<z.ZodString>;
        size_bytes: z.ZodNullable<z.ZodNumber>;
        name: z.ZodString;
        type: z.ZodString;
        kind: z.ZodEnum<{
            function: "function";
            variable: "variable";
            module: "module";
            class: "class";
        }>;
        repr: z.ZodString;
    }, z.core.$strip>>;
    total: z.ZodNumber;
}, z.core.$strip>;
export type VariableListing = z.infer<typeof variableListingSchema>;
export declare const parameterSchema: z.ZodObject<{
    name: z.ZodString;
    kind: z.ZodString;
    annotation: z.ZodNullable<z.ZodString>;
    default: z.ZodNullable<z.ZodString>;
    required: z.ZodBoolean;
}, z.core.$strip>;
export type Parameter = z.infer<typeof parameterSchema>;
export declare const inspectionSchema: z.ZodObject<{
    length: z.ZodNullable<z.ZodNumber>;
    columns: z.ZodNullable<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        dtype: z.ZodString;
    }, z.core.$strip>>>;
    head: z.ZodNullable<z.ZodString>;
    describe: z.ZodNullable<z.ZodString>;
    stats: z.ZodNullable<z.ZodObject<{
        min: z.ZodNullable<z.ZodNumber>;
        max: z.ZodNullable<z.ZodNumber>;
        mean: z.ZodNullable<z.ZodNumber>;
    }, z.core.$strip>>;
    attributes: z.ZodNullable<z.ZodArray<z.ZodString>>;
    shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
    dtype: z.ZodNullable<z.ZodString>;
    size_bytes: z.ZodNullable<z.ZodNumber>;
    name: z.ZodString;
    type: z.ZodString;
    kind: z.ZodEnum<{
        function: "function";
        variable: "variable";
        module: "module";
        class: "class";
    }>;
    repr: z.ZodString;
    doc: z.ZodNullable<z.ZodString>;
    signature: z.ZodNullable<z.ZodString>;
    parameters: z.ZodNullable<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        kind: z.ZodString;
        annotation: z.ZodNullable<z.ZodString>;
        default: z.ZodNullable<z.ZodString>;
        required: z.ZodBoolean;
    }, z.core.$strip>>>;
    source: z.ZodNullable<z.ZodString>;
}, z.core.$strip>;
export type Inspection = z.infer<typeof inspectionSchema>;
export declare const removalSchema: z.ZodObject<{
    removed: z.ZodArray<z.ZodString>;
    not_found: z.ZodArray<z.ZodString>;
}, z.core.$strip>;
export type Removal = z.infer<typeof removalSchema>;
/** A call of a namespace function with JSON arguments (call_function, registered tools). */
export declare const functionCallSchema: z.ZodObject<{
    name: z.ZodString;
    args: z.ZodArray<z.ZodUnknown>;
    kwargs: z.ZodRecord<z.ZodString, z.ZodUnknown>;
}, z.core.$strip>;
export type FunctionCall = z.infer<typeof functionCallSchema>;
/** A namespace op that failed for a reason the caller can fix (a name that is not there, not callable, …). */
export declare const NAMESPACE_ERRORS: readonly ["NAME_NOT_FOUND", "NOT_CALLABLE", "INVALID_INPUT", "INTERRUPTED", "FAILED"];
export declare const requestSchemas: {
    readonly execute: z.ZodObject<{
        type: z.ZodLiteral<"execute">;
        code: z.ZodString;
        limits: z.ZodObject<{
            stdout: z.ZodNumber;
            stderr: z.ZodNumber;
            result: z.ZodNumber;
            traceback: z.ZodNumber;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly run_file: z.ZodObject<{
        type: z.ZodLiteral<"run_file">;
        path: z.ZodString;
        limits: z.ZodObject<{
            stdout: z.ZodNumber;
            stderr: z.ZodNumber;
            result: z.ZodNumber;
            traceback: z.ZodNumber;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly write_file: z.ZodObject<{
        type: z.ZodLiteral<"write_file">;
        path: z.ZodString;
        data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        append: z.ZodBoolean;
        overwrite: z.ZodBoolean;
    }, z.core.$strip>;
    readonly delete_file: z.ZodObject<{
        type: z.ZodLiteral<"delete_file">;
        path: z.ZodString;
    }, z.core.$strip>;
    readonly read_file: z.ZodObject<{
        type: z.ZodLiteral<"read_file">;
        path: z.ZodString;
        offset: z.ZodNumber;
        length: z.ZodNumber;
    }, z.core.$strip>;
    readonly load_packages: z.ZodObject<{
        type: z.ZodLiteral<"load_packages">;
        packages: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly list_packages: z.ZodObject<{
        type: z.ZodLiteral<"list_packages">;
    }, z.core.$strip>;
    readonly install_wheel: z.ZodObject<{
        type: z.ZodLiteral<"install_wheel">;
        filename: z.ZodString;
        data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
    }, z.core.$strip>;
    /**
     * Imports the preload set in the background (workers/preloader.ts): answered once every package is imported,
     * while requests sent meanwhile run between its steps.
     */
    readonly preload: z.ZodObject<{
        type: z.ZodLiteral<"preload">;
    }, z.core.$strip>;
    /**
     * Runs up to `cells` trivial cells in a scratch namespace, a few at a time between requests, so that the session's
     * code paths (the interpreter's, the harness's, the worker's) are compiled by the optimizing tiers before an agent's
     * first calls; stops at the first other request. Sent to idle sessions (PreloadScheduler). Nothing of it is visible.
     */
    readonly warm_up: z.ZodObject<{
        type: z.ZodLiteral<"warm_up">;
        cells: z.ZodNumber;
    }, z.core.$strip>;
    readonly call_function: z.ZodObject<{
        type: z.ZodLiteral<"call_function">;
        call: z.ZodObject<{
            name: z.ZodString;
            args: z.ZodArray<z.ZodUnknown>;
            kwargs: z.ZodRecord<z.ZodString, z.ZodUnknown>;
        }, z.core.$strip>;
        limits: z.ZodObject<{
            stdout: z.ZodNumber;
            stderr: z.ZodNumber;
            result: z.ZodNumber;
            traceback: z.ZodNumber;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly list_variables: z.ZodObject<{
        type: z.ZodLiteral<"list_variables">;
        filter: z.ZodNullable<z.ZodString>;
        max_items: z.ZodNumber;
        repr_chars: z.ZodNumber;
    }, z.core.$strip>;
    readonly inspect_variable: z.ZodObject<{
        type: z.ZodLiteral<"inspect_variable">;
        name: z.ZodString;
        detail: z.ZodBoolean;
        text_chars: z.ZodNumber;
    }, z.core.$strip>;
    readonly remove_variables: z.ZodObject<{
        type: z.ZodLiteral<"remove_variables">;
        names: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly reset: z.ZodObject<{
        type: z.ZodLiteral<"reset">;
        clear_files: z.ZodBoolean;
    }, z.core.$strip>;
};
export type Op = keyof typeof requestSchemas;
/** A request body without its id. */
export type RequestOf<K extends Op> = z.infer<(typeof requestSchemas)[K]>;
export type SessionRequest = {
    [K in Op]: RequestOf<K> & {
        id: number;
    };
}[Op];
/** A page of a file read from the session's copy: `data` is at most the requested length. */
export declare const filePageSchema: z.ZodObject<{
    data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
    size: z.ZodNumber;
}, z.core.$strip>;
export type FilePage = z.infer<typeof filePageSchema>;
/** What the server accepts as the reply to each op. */
export declare const REPLIES: {
    readonly execute: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly run_file: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly write_file: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly delete_file: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly read_file: z.ZodObject<{
        data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        size: z.ZodNumber;
    }, z.core.$strip>;
    readonly load_packages: z.ZodNull;
    readonly list_packages: z.ZodObject<{
        loaded: z.ZodRecord<z.ZodString, z.ZodString>;
        available: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly install_wheel: z.ZodNull;
    /** Imported module → version. */
    readonly preload: z.ZodRecord<z.ZodString, z.ZodString>;
    /** Cells run (fewer than asked when a request came first). */
    readonly warm_up: z.ZodObject<{
        cells: z.ZodNumber;
    }, z.core.$strip>;
    readonly call_function: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly list_variables: z.ZodObject<{
        variables: z.ZodArray<z.ZodObject<{
            shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
            dtype: z.ZodNullable<z.ZodString>;
            size_bytes: z.ZodNullable<z.ZodNumber>;
            name: z.ZodString;
            type: z.ZodString;
            kind: z.ZodEnum<{
                function: "function";
                variable: "variable";
                module: "module";
                class: "class";
            }>;
            repr: z.ZodString;
        }, z.core.$strip>>;
        total: z.ZodNumber;
    }, z.core.$strip>;
    readonly inspect_variable: z.ZodObject<{
        length: z.ZodNullable<z.ZodNumber>;
        columns: z.ZodNullable<z.ZodArray<z.ZodObject<{
            name: z.ZodString;
            dtype: z.ZodString;
        }, z.core.$strip>>>;
        head: z.ZodNullable<z.ZodString>;
        describe: z.ZodNullable<z.ZodString>;
        stats: z.ZodNullable<z.ZodObject<{
            min: z.ZodNullable<z.ZodNumber>;
            max: z.ZodNullable<z.ZodNumber>;
            mean: z.ZodNullable<z.ZodNumber>;
        }, z.core.$strip>>;
        attributes: z.ZodNullable<z.ZodArray<z.ZodString>>;
        shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
        dtype: z.ZodNullable<z.ZodString>;
        size_bytes: z.ZodNullable<z.ZodNumber>;
        name: z.ZodString;
        type: z.ZodString;
        kind: z.ZodEnum<{
            function: "function";
            variable: "variable";
            module: "module";
            class: "class";
        }>;
        repr: z.ZodString;
        doc: z.ZodNullable<z.ZodString>;
        signature: z.ZodNullable<z.ZodString>;
        parameters: z.ZodNullable<z.ZodArray<z.ZodObject<{
            name: z.ZodString;
            kind: z.ZodString;
            annotation: z.ZodNullable<z.ZodString>;
            default: z.ZodNullable<z.ZodString>;
            required: z.ZodBoolean;
        }, z.core.$strip>>>;
        source: z.ZodNullable<z.ZodString>;
    }, z.core.$strip>;
    readonly remove_variables: z.ZodObject<{
        removed: z.ZodArray<z.ZodString>;
        not_found: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    /** How many names were removed, and the files deleted when asked to. */
    readonly reset: z.ZodObject<{
        removed: z.ZodNumber;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
};
export type ReplyOf<K extends Op> = z.infer<(typeof REPLIES)[K]>;
/** What the supervisor accepts from its worker for each op it relays (file bytes included). */
export declare const WORKER_REPLIES: {
    readonly execute: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
                data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
            violation: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly run_file: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
                data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
            violation: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly write_file: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
            data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
        violation: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>;
    readonly delete_file: z.ZodObject<{
        written: z.ZodArray<z.ZodObject<{
            path: z.ZodString;
            size: z.ZodNumber;
            mtimeMs: z.ZodNumber;
            data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        }, z.core.$strip>>;
        deleted: z.ZodArray<z.ZodString>;
        violation: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>;
    readonly call_function: z.ZodObject<{
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
        loaded_packages: z.ZodArray<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
                data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
            violation: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly reset: z.ZodObject<{
        removed: z.ZodNumber;
        changes: z.ZodObject<{
            written: z.ZodArray<z.ZodObject<{
                path: z.ZodString;
                size: z.ZodNumber;
                mtimeMs: z.ZodNumber;
                data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
            }, z.core.$strip>>;
            deleted: z.ZodArray<z.ZodString>;
            violation: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    readonly read_file: z.ZodObject<{
        data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
        size: z.ZodNumber;
    }, z.core.$strip>;
    readonly load_packages: z.ZodNull;
    readonly list_packages: z.ZodObject<{
        loaded: z.ZodRecord<z.ZodString, z.ZodString>;
        available: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly install_wheel: z.ZodNull;
    /** Imported module → version. */
    readonly preload: z.ZodRecord<z.ZodString, z.ZodString>;
    /** Cells run (fewer than asked when a request came first). */
    readonly warm_up: z.ZodObject<{
        cells: z.ZodNumber;
    }, z.core.$strip>;
    readonly list_variables: z.ZodObject<{
        variables: z.ZodArray<z.ZodObject<{
            shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
            dtype: z.ZodNullable<z.ZodString>;
            size_bytes: z.ZodNullable<z.ZodNumber>;
            name: z.ZodString;
            type: z.ZodString;
            kind: z.ZodEnum<{
                function: "function";
                variable: "variable";
                module: "module";
                class: "class";
            }>;
            repr: z.ZodString;
        }, z.core.$strip>>;
        total: z.ZodNumber;
    }, z.core.$strip>;
    readonly inspect_variable: z.ZodObject<{
        length: z.ZodNullable<z.ZodNumber>;
        columns: z.ZodNullable<z.ZodArray<z.ZodObject<{
            name: z.ZodString;
            dtype: z.ZodString;
        }, z.core.$strip>>>;
        head: z.ZodNullable<z.ZodString>;
        describe: z.ZodNullable<z.ZodString>;
        stats: z.ZodNullable<z.ZodObject<{
            min: z.ZodNullable<z.ZodNumber>;
            max: z.ZodNullable<z.ZodNumber>;
            mean: z.ZodNullable<z.ZodNumber>;
        }, z.core.$strip>>;
        attributes: z.ZodNullable<z.ZodArray<z.ZodString>>;
        shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
        dtype: z.ZodNullable<z.ZodString>;
        size_bytes: z.ZodNullable<z.ZodNumber>;
        name: z.ZodString;
        type: z.ZodString;
        kind: z.ZodEnum<{
            function: "function";
            variable: "variable";
            module: "module";
            class: "class";
        }>;
        repr: z.ZodString;
        doc: z.ZodNullable<z.ZodString>;
        signature: z.ZodNullable<z.ZodString>;
        parameters: z.ZodNullable<z.ZodArray<z.ZodObject<{
            name: z.ZodString;
            kind: z.ZodString;
            annotation: z.ZodNullable<z.ZodString>;
            default: z.ZodNullable<z.ZodString>;
            required: z.ZodBoolean;
        }, z.core.$strip>>>;
        source: z.ZodNullable<z.ZodString>;
    }, z.core.$strip>;
    readonly remove_variables: z.ZodObject<{
        removed: z.ZodArray<z.ZodString>;
        not_found: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
};
export declare const sessionMessageSchema: z.ZodDiscriminatedUnion<[z.ZodObject<{
    type: z.ZodLiteral<"ready">;
    info: z.ZodObject<{
        kind: z.ZodEnum<{
            modern: "modern";
            legacy: "legacy";
        }>;
        python: z.ZodString;
        pyodide: z.ZodString;
        packages: z.ZodRecord<z.ZodString, z.ZodString>;
        available: z.ZodArray<z.ZodString>;
        interruptible: z.ZodBoolean;
        bootMs: z.ZodNumber;
    }, z.core.$strip>;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"boot_failed">;
    error: z.ZodObject<{
        code: z.ZodString;
        message: z.ZodString;
    }, z.core.$strip>;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"log">;
    message: z.ZodPipe<z.ZodString, z.ZodTransform<string, string>>;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"snapshot">;
    data: z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"fatal">;
    reason: z.ZodString;
}, z.core.$strip>, z.ZodDiscriminatedUnion<[z.ZodObject<{
    type: z.ZodLiteral<"reply">;
    id: z.ZodNumber;
    ok: z.ZodLiteral<true>;
    value: z.ZodUnknown;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"reply">;
    id: z.ZodNumber;
    ok: z.ZodLiteral<false>;
    error: z.ZodObject<{
        code: z.ZodString;
        message: z.ZodString;
    }, z.core.$strip>;
}, z.core.$strip>], "ok">], "type">;
export type SessionMessage = z.infer<typeof sessionMessageSchema>;
/** Everything a worker needs to boot (passed as `workerData`; to a session process in its `start` message). */
export declare const workerInitSchema: z.ZodObject<{
    runtime: z.ZodEnum<{
        modern: "modern";
        legacy: "legacy";
    }>;
    distDir: z.ZodString;
    wheelsDir: z.ZodNullable<z.ZodString>;
    wheelFiles: z.ZodArray<z.ZodString>;
    lockFile: z.ZodNullable<z.ZodString>;
    preload: z.ZodArray<z.ZodString>;
    harnessPath: z.ZodString;
    fileLimits: z.ZodObject<{
        maxFileBytes: z.ZodNumber;
        maxSessionBytes: z.ZodNumber;
        maxFiles: z.ZodNumber;
    }, z.core.$strip>;
    figureFormats: z.ZodArray<z.ZodString>;
    snapshot: z.ZodNullable<z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>>;
    makeSnapshot: z.ZodBoolean;
    snapshotPreload: z.ZodBoolean;
}, z.core.$strip>;
export type WorkerInit = z.infer<typeof workerInitSchema>;
/** How a supervisor starts its worker thread. */
export declare const supervisorOptionsSchema: z.ZodObject<{
    init: z.ZodObject<{
        runtime: z.ZodEnum<{
            modern: "modern";
            legacy: "legacy";
        }>;
        distDir: z.ZodString;
        wheelsDir: z.ZodNullable<z.ZodString>;
        wheelFiles: z.ZodArray<z.ZodString>;
        lockFile: z.ZodNullable<z.ZodString>;
        preload: z.ZodArray<z.ZodString>;
        harnessPath: z.ZodString;
        fileLimits: z.ZodObject<{
            maxFileBytes: z.ZodNumber;
            maxSessionBytes: z.ZodNumber;
            maxFiles: z.ZodNumber;
        }, z.core.$strip>;
        figureFormats: z.ZodArray<z.ZodString>;
        snapshot: z.ZodNullable<z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>>;
        makeSnapshot: z.ZodBoolean;
        snapshotPreload: z.ZodBoolean;
    }, z.core.$strip>;
    maxHeapMb: z.ZodNumber;
    maxWasmMemoryMb: z.ZodNumber;
}, z.core.$strip>;
export type SupervisorOptions = z.infer<typeof supervisorOptionsSchema>;
/** Messages from the server to a session process. */
export declare const processControlSchema: z.ZodDiscriminatedUnion<[z.ZodObject<{
    control: z.ZodLiteral<"start">;
    options: z.ZodObject<{
        init: z.ZodObject<{
            runtime: z.ZodEnum<{
                modern: "modern";
                legacy: "legacy";
            }>;
            distDir: z.ZodString;
            wheelsDir: z.ZodNullable<z.ZodString>;
            wheelFiles: z.ZodArray<z.ZodString>;
            lockFile: z.ZodNullable<z.ZodString>;
            preload: z.ZodArray<z.ZodString>;
            harnessPath: z.ZodString;
            fileLimits: z.ZodObject<{
                maxFileBytes: z.ZodNumber;
                maxSessionBytes: z.ZodNumber;
                maxFiles: z.ZodNumber;
            }, z.core.$strip>;
            figureFormats: z.ZodArray<z.ZodString>;
            snapshot: z.ZodNullable<z.ZodCustom<Uint8Array<ArrayBufferLike>, Uint8Array<ArrayBufferLike>>>;
            makeSnapshot: z.ZodBoolean;
            snapshotPreload: z.ZodBoolean;
        }, z.core.$strip>;
        maxHeapMb: z.ZodNumber;
        maxWasmMemoryMb: z.ZodNumber;
    }, z.core.$strip>;
}, z.core.$strip>, z.ZodObject<{
    control: z.ZodLiteral<"interrupt">;
}, z.core.$strip>, z.ZodObject<{
    control: z.ZodLiteral<"request">;
    request: z.ZodCustom<SessionRequest, SessionRequest>;
}, z.core.$strip>], "control">;
export type ProcessControl = z.infer<typeof processControlSchema>;
/** Parses one request (by its type) against the contract; throws on anything else. */
export declare function parseRequest(raw: unknown): SessionRequest;
export declare const harnessRequestSchemas: {
    readonly configure: z.ZodObject<{
        op: z.ZodLiteral<"configure">;
        figure_formats: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly import_modules: z.ZodObject<{
        op: z.ZodLiteral<"import_modules">;
        names: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly imported_names: z.ZodObject<{
        op: z.ZodLiteral<"imported_names">;
        code: z.ZodString;
    }, z.core.$strip>;
    readonly run: z.ZodObject<{
        op: z.ZodLiteral<"run">;
        code: z.ZodString;
        limits: z.ZodObject<{
            stdout: z.ZodNumber;
            stderr: z.ZodNumber;
            result: z.ZodNumber;
            traceback: z.ZodNumber;
        }, z.core.$strip>;
        filename: z.ZodOptional<z.ZodString>;
        call: z.ZodOptional<z.ZodObject<{
            name: z.ZodString;
            args: z.ZodArray<z.ZodUnknown>;
            kwargs: z.ZodRecord<z.ZodString, z.ZodUnknown>;
        }, z.core.$strip>>;
        scratch: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>;
    readonly list_variables: z.ZodObject<{
        op: z.ZodLiteral<"list_variables">;
        filter: z.ZodNullable<z.ZodString>;
        max_items: z.ZodNumber;
        repr_chars: z.ZodNumber;
    }, z.core.$strip>;
    readonly inspect_variable: z.ZodObject<{
        op: z.ZodLiteral<"inspect_variable">;
        name: z.ZodString;
        detail: z.ZodBoolean;
        text_chars: z.ZodNumber;
    }, z.core.$strip>;
    readonly remove_variables: z.ZodObject<{
        op: z.ZodLiteral<"remove_variables">;
        names: z.ZodArray<z.ZodString>;
    }, z.core.$strip>;
    readonly reset: z.ZodObject<{
        op: z.ZodLiteral<"reset">;
        clear_files: z.ZodBoolean;
    }, z.core.$strip>;
    readonly install_wheel: z.ZodObject<{
        op: z.ZodLiteral<"install_wheel">;
        filename: z.ZodString;
        data: z.ZodString;
    }, z.core.$strip>;
    /** Second half of a cell, after its callbacks ran (workers/sandbox/cell-scope.ts). */
    readonly finish: z.ZodObject<{
        op: z.ZodLiteral<"finish">;
        interrupted: z.ZodBoolean;
        callback_errors: z.ZodArray<z.ZodString>;
        more_errors: z.ZodNumber;
        pending_timers: z.ZodNumber;
        scratch: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>;
    /** How many asyncio tasks the cell still has pending (-1: interrupted while counting). */
    readonly tasks: z.ZodObject<{
        op: z.ZodLiteral<"tasks">;
        scratch: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>;
};
export type HarnessOp = keyof typeof harnessRequestSchemas;
export type HarnessRequestOf<K extends HarnessOp> = z.infer<(typeof harnessRequestSchemas)[K]>;
export declare const harnessReplySchemas: {
    /** errno numbers of this interpreter's libc, for the file quota. */
    readonly configure: z.ZodObject<{
        ENOSPC: z.ZodNumber;
        EFBIG: z.ZodNumber;
        EDQUOT: z.ZodNumber;
        ENOENT: z.ZodNumber;
        EEXIST: z.ZodNumber;
        EISDIR: z.ZodNumber;
        EACCES: z.ZodNumber;
    }, z.core.$strip>;
    /** Imported module → version. */
    readonly import_modules: z.ZodRecord<z.ZodString, z.ZodString>;
    /** Top-level module names the code imports. */
    readonly imported_names: z.ZodArray<z.ZodString>;
    /** The outcome, or (when the cell left callbacks or tasks) a request to settle them and then call `finish`. */
    readonly run: z.ZodUnion<readonly [z.ZodObject<{
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
    }, z.core.$strip>, z.ZodObject<{
        settle: z.ZodLiteral<true>;
        interrupted: z.ZodBoolean;
        tasks: z.ZodNumber;
    }, z.core.$strip>]>;
    readonly finish: z.ZodObject<{
        error: z.ZodNullable<z.ZodObject<{
            type: z.ZodString;
            message: z.ZodString;
            traceback: z.ZodString;
        }, z.core.$strip>>;
        stdout: z.ZodString;
        stderr: z.ZodString;
        result: z.ZodNullable<z.ZodString>;
        display: z.ZodArray<z.ZodObject<{
            mime_type: z.ZodString;
            path: z.ZodOptional<z.ZodString>;
            text: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        execution_count: z.ZodNumber;
        truncated: z.ZodNullable<z.ZodRecord<z.ZodEnum<{
            error: "error";
            stdout: "stdout";
            stderr: "stderr";
            result: "result";
            traceback: "traceback";
            display: "display";
        }> & z.core.$partial, z.ZodNumber>>;
    }, z.core.$strip>;
    readonly tasks: z.ZodNumber;
    readonly install_wheel: z.ZodNull;
    readonly list_variables: z.ZodUnion<readonly [z.ZodObject<{
        ok: z.ZodLiteral<true>;
        value: z.ZodObject<{
            variables: z.ZodArray<z.ZodObject<{
                shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
                dtype: z.ZodNullable<z.ZodString>;
                size_bytes: z.ZodNullable<z.ZodNumber>;
                name: z.ZodString;
                type: z.ZodString;
                kind: z.ZodEnum<{
                    function: "function";
                    variable: "variable";
                    module: "module";
                    class: "class";
                }>;
                repr: z.ZodString;
            }, z.core.$strip>>;
            total: z.ZodNumber;
        }, z.core.$strip>;
    }, z.core.$strip>, z.ZodObject<{
        ok: z.ZodLiteral<false>;
        code: z.ZodEnum<{
            NAME_NOT_FOUND: "NAME_NOT_FOUND";
            NOT_CALLABLE: "NOT_CALLABLE";
            INVALID_INPUT: "INVALID_INPUT";
            INTERRUPTED: "INTERRUPTED";
            FAILED: "FAILED";
        }>;
        message: z.ZodString;
    }, z.core.$strip>]>;
    readonly inspect_variable: z.ZodUnion<readonly [z.ZodObject<{
        ok: z.ZodLiteral<true>;
        value: z.ZodObject<{
            length: z.ZodNullable<z.ZodNumber>;
            columns: z.ZodNullable<z.ZodArray<z.ZodObject<{
                name: z.ZodString;
                dtype: z.ZodString;
            }, z.core.$strip>>>;
            head: z.ZodNullable<z.ZodString>;
            describe: z.ZodNullable<z.ZodString>;
            stats: z.ZodNullable<z.ZodObject<{
                min: z.ZodNullable<z.ZodNumber>;
                max: z.ZodNullable<z.ZodNumber>;
                mean: z.ZodNullable<z.ZodNumber>;
            }, z.core.$strip>>;
            attributes: z.ZodNullable<z.ZodArray<z.ZodString>>;
            shape: z.ZodNullable<z.ZodArray<z.ZodNumber>>;
            dtype: z.ZodNullable<z.ZodString>;
            size_bytes: z.ZodNullable<z.ZodNumber>;
            name: z.ZodString;
            type: z.ZodString;
            kind: z.ZodEnum<{
                function: "function";
                variable: "variable";
                module: "module";
                class: "class";
            }>;
            repr: z.ZodString;
            doc: z.ZodNullable<z.ZodString>;
            signature: z.ZodNullable<z.ZodString>;
            parameters: z.ZodNullable<z.ZodArray<z.ZodObject<{
                name: z.ZodString;
                kind: z.ZodString;
                annotation: z.ZodNullable<z.ZodString>;
                default: z.ZodNullable<z.ZodString>;
                required: z.ZodBoolean;
            }, z.core.$strip>>>;
            source: z.ZodNullable<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>, z.ZodObject<{
        ok: z.ZodLiteral<false>;
        code: z.ZodEnum<{
            NAME_NOT_FOUND: "NAME_NOT_FOUND";
            NOT_CALLABLE: "NOT_CALLABLE";
            INVALID_INPUT: "INVALID_INPUT";
            INTERRUPTED: "INTERRUPTED";
            FAILED: "FAILED";
        }>;
        message: z.ZodString;
    }, z.core.$strip>]>;
    readonly remove_variables: z.ZodUnion<readonly [z.ZodObject<{
        ok: z.ZodLiteral<true>;
        value: z.ZodObject<{
            removed: z.ZodArray<z.ZodString>;
            not_found: z.ZodArray<z.ZodString>;
        }, z.core.$strip>;
    }, z.core.$strip>, z.ZodObject<{
        ok: z.ZodLiteral<false>;
        code: z.ZodEnum<{
            NAME_NOT_FOUND: "NAME_NOT_FOUND";
            NOT_CALLABLE: "NOT_CALLABLE";
            INVALID_INPUT: "INVALID_INPUT";
            INTERRUPTED: "INTERRUPTED";
            FAILED: "FAILED";
        }>;
        message: z.ZodString;
    }, z.core.$strip>]>;
    readonly reset: z.ZodUnion<readonly [z.ZodObject<{
        ok: z.ZodLiteral<true>;
        value: z.ZodObject<{
            removed: z.ZodNumber;
        }, z.core.$strip>;
    }, z.core.$strip>, z.ZodObject<{
        ok: z.ZodLiteral<false>;
        code: z.ZodEnum<{
            NAME_NOT_FOUND: "NAME_NOT_FOUND";
            NOT_CALLABLE: "NOT_CALLABLE";
            INVALID_INPUT: "INVALID_INPUT";
            INTERRUPTED: "INTERRUPTED";
            FAILED: "FAILED";
        }>;
        message: z.ZodString;
    }, z.core.$strip>]>;
};
export type HarnessReplyOf<K extends HarnessOp> = z.infer<(typeof harnessReplySchemas)[K]>;
