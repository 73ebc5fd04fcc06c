/**
 * Host-side caps for the namespace tools (list_variables, inspect_variable, remove_variables). The harness bounds
 * what it sends, but it runs in the user's realm, so every string is cut here again and a reply is fitted under
 * --max-reply-bytes (whole items dropped from a listing; the longest texts cut in an inspection).
 */
import { type Inspection, type VariableListing } from '../contract.js';
/** Longest short field (a name, a type, a dtype, a short repr) kept. */
export declare const SHORT_CHARS = 200;
/** Most variables list_variables asks the harness for. */
export declare const MAX_LISTED = 1000;
/**
 * A name the namespace tools accept: an identifier or a dotted path of identifiers, resolved in the session with
 * getattr only. Security: anything else ("__import__('os')", "a; b", "x[0]") is refused before it reaches Python.
 */
export declare function checkedName(name: string, what?: string, dotted?: boolean): string;
/** list_variables: each string capped, then variables dropped from the end until the reply fits. */
export declare function capListing(listing: VariableListing, maxReplyBytes: number): {
    variables: {
        name: string;
        type: string;
        kind: "function" | "variable" | "module" | "class";
        repr: string;
        shape: number[] | null;
        dtype: string | null;
        size_bytes: number | null;
    }[];
    total: number;
    omitted: number;
    truncated_chars: number;
};
/** inspect_variable: texts capped at `textChars`, short fields at SHORT_CHARS, then fitted under the reply limit. */
export declare function capInspection(inspection: Inspection, textChars: number, maxReplyBytes: number): {
    name: string;
    type: string;
    kind: "function" | "variable" | "module" | "class";
    repr: string;
    doc: string | null;
    signature: string | null;
    parameters: {
        name: string;
        kind: string;
        annotation: string | null;
        default: string | null;
        required: boolean;
    }[] | null;
    source: string | null;
    shape: number[] | null;
    dtype: string | null;
    size_bytes: number | null;
    length: number | null;
    columns: {
        name: string;
        dtype: string;
    }[] | null;
    head: string | null;
    describe: string | null;
    stats: {
        min: number | null;
        max: number | null;
        mean: number | null;
    } | null;
    attributes: string[] | null;
    truncated_chars: number;
};
