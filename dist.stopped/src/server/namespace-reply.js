/**
 * Host-side caps for the namespace tools (list_variables, inspect_variable, remove_variables). The harness bounds
 * what it sends, but it runs in the user's realm, so every string is cut here again and a reply is fitted under
 * --max-reply-bytes (whole items dropped from a listing; the longest texts cut in an inspection).
 */
import { DOTTED_NAME, IDENTIFIER } from '../contract.js';
import { PyodideMcpError } from '../errors.js';
import { jsonBytes, shrinkLongestStrings } from '../sandbox/reply-caps.js';
/** Longest short field (a name, a type, a dtype, a short repr) kept. */
export const SHORT_CHARS = 200;
/** Most variables list_variables asks the harness for. */
export const MAX_LISTED = 1000;
/**
 * A name the namespace tools accept: an identifier or a dotted path of identifiers, resolved in the session with
 * getattr only. Security: anything else ("__import__('os')", "a; b", "x[0]") is refused before it reaches Python.
 */
export function checkedName(name, what = 'name', dotted = true) {
    if (!(dotted ? DOTTED_NAME : IDENTIFIER).test(name) || name.length > 500) {
        throw new PyodideMcpError('INVALID_INPUT', `${what} ${JSON.stringify(name.slice(0, 100))} is not ${dotted ? 'a name or a dotted path of names (like df or df.columns)' : 'a Python identifier'}. ` +
            'It is looked up, never evaluated: calls, indexing and operators are not accepted; to compute something, use execute_code.');
    }
    return name;
}
const cut = (text, limit, counter) => {
    if (text.length <= limit)
        return text;
    counter.cut += text.length - limit;
    return text.slice(0, limit);
};
/** list_variables: each string capped, then variables dropped from the end until the reply fits. */
export function capListing(listing, maxReplyBytes) {
    const counter = { cut: 0 };
    const short = (text) => cut(text, SHORT_CHARS, counter);
    const variables = listing.variables.slice(0, MAX_LISTED).map((v) => ({
        name: short(v.name),
        type: short(v.type),
        kind: v.kind,
        repr: short(v.repr),
        shape: v.shape,
        dtype: v.dtype === null ? null : short(v.dtype),
        size_bytes: v.size_bytes,
    }));
    // The text block repeats every entry, so each one costs about twice its JSON. Each entry is measured once (not the
    // whole list again after every drop, which was quadratic in the 1000 entries a listing may hold).
    let budget = (maxReplyBytes - 4096) / 2;
    const fitting = variables.findIndex((v) => (budget -= jsonBytes(v) + 1) < 0);
    if (fitting >= 0)
        variables.length = fitting;
    const total = Math.max(listing.total, listing.variables.length);
    return { variables, total, omitted: total - variables.length, truncated_chars: counter.cut };
}
/** inspect_variable: texts capped at `textChars`, short fields at SHORT_CHARS, then fitted under the reply limit. */
export function capInspection(inspection, textChars, maxReplyBytes) {
    const counter = { cut: 0 };
    const short = (text) => cut(text, SHORT_CHARS, counter);
    const text = (value) => (value === null ? null : cut(value, textChars, counter));
    const capped = {
        name: short(inspection.name),
        type: short(inspection.type),
        kind: inspection.kind,
        repr: text(inspection.repr),
        doc: text(inspection.doc),
        signature: text(inspection.signature),
        parameters: inspection.parameters?.map((p) => ({
            name: short(p.name),
            kind: short(p.kind),
            annotation: p.annotation === null ? null : short(p.annotation),
            default: p.default === null ? null : short(p.default),
            required: p.required,
        })) ?? null,
        source: text(inspection.source),
        shape: inspection.shape,
        dtype: inspection.dtype === null ? null : short(inspection.dtype),
        size_bytes: inspection.size_bytes,
        length: inspection.length,
        columns: inspection.columns?.slice(0, MAX_LISTED).map((c) => ({ name: short(c.name), dtype: short(c.dtype) })) ?? null,
        head: text(inspection.head),
        describe: text(inspection.describe),
        stats: inspection.stats,
        attributes: inspection.attributes?.slice(0, MAX_LISTED).map(short) ?? null,
        truncated_chars: 0,
    };
    const cutToFit = shrinkLongestStrings(capped, () => 2 * jsonBytes(capped) + 4096 <= maxReplyBytes);
    capped.truncated_chars = counter.cut + Object.values(cutToFit).reduce((a, b) => a + b, 0);
    return capped;
}
