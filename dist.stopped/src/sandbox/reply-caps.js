/** Longest Python exception type name kept. */
export const MAX_ERROR_TYPE_CHARS = 200;
/** Most rich outputs (figures, display() calls) kept from one cell. */
export const MAX_DISPLAY_ITEMS = 100;
/** Caps every string of a cell outcome; characters cut are added to `truncated`. */
export function capOutcome(outcome, limits) {
    const cut = { ...(outcome.truncated ?? {}) };
    const cap = (field, text, limit) => {
        if (text.length <= limit)
            return text;
        cut[field] = (cut[field] ?? 0) + text.length - limit;
        return text.slice(0, limit);
    };
    const error = outcome.error && {
        type: cap('error', outcome.error.type, MAX_ERROR_TYPE_CHARS),
        message: cap('error', outcome.error.message, limits.traceback),
        traceback: cap('traceback', outcome.error.traceback, limits.traceback),
    };
    const kept = outcome.display.slice(0, MAX_DISPLAY_ITEMS);
    if (outcome.display.length > kept.length)
        cut.display = (cut.display ?? 0) + (outcome.display.length - kept.length);
    const display = kept.map((item) => ({
        mime_type: cap('display', item.mime_type, 200),
        ...(item.path !== undefined ? { path: item.path } : {}),
        ...(item.text !== undefined ? { text: cap('display', item.text, limits.result) } : {}),
    }));
    return {
        ...outcome,
        stdout: cap('stdout', outcome.stdout, limits.stdout),
        stderr: cap('stderr', outcome.stderr, limits.stderr),
        result: outcome.result === null ? null : cap('result', outcome.result, limits.result),
        error,
        display,
        truncated: Object.keys(cut).length > 0 ? cut : null,
    };
}
/** Size of a value as JSON text in UTF-8 bytes: what it costs on the wire. */
export function jsonBytes(value) {
    return Buffer.byteLength(JSON.stringify(value));
}
/**
 * Cuts the longest strings of a JSON-like value to half their length until `fits()` holds (or nothing long is
 * left); returns the characters cut by top-level field. Used as the last resort of reply fitting, after images.
 */
export function shrinkLongestStrings(target, fits) {
    const cut = {};
    for (let round = 0; round < 64 && !fits(); round++) {
        let best = null;
        const visit = (holder, top) => {
            for (const [key, value] of Object.entries(holder)) {
                const where = top || key;
                if (typeof value === 'string' && value.length > 256 && (!best || value.length > best.length)) {
                    best = { holder, key: Array.isArray(holder) ? Number(key) : key, top: where, length: value.length };
                }
                else if (typeof value === 'object' && value !== null) {
                    visit(value, where);
                }
            }
        };
        visit(target, '');
        if (!best)
            break;
        const { holder, key, top, length } = best;
        const kept = Math.floor(length / 2);
        holder[key] = `${holder[key].slice(0, kept)} [... cut to fit --max-reply-bytes]`;
        cut[top] = (cut[top] ?? 0) + length - kept;
    }
    return cut;
}
