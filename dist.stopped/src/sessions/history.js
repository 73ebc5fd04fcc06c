/** Room kept for the note and the error of an elided cell, whose source is cut to the rest of the bound. */
const ELIDED_RESERVE = 1024;
/** Characters of an elided cell's error message kept (its type and the start of the message say it failed). */
const ELIDED_ERROR_CHARS = 300;
export class CellHistory {
    maxCells;
    maxBytes;
    cells = [];
    total = 0;
    /** Cells dropped because the history was full, by cells or bytes (not those cleared by a reset). */
    dropped = 0;
    /** Cells run before the last reset_session (a fresh namespace starts a fresh history). */
    clearedByReset = 0;
    /**
     * @param maxCells most cells kept (--max-history-cells, default 500); 0 keeps none
     * @param maxBytes most bytes of text kept (--max-history-bytes, default 8 MiB)
     */
    constructor(maxCells, maxBytes) {
        this.maxCells = maxCells;
        this.maxBytes = maxBytes;
    }
    /** Bytes of text the history holds now (each cell's `bytes`), at most --max-history-bytes. */
    get bytes() {
        return this.total;
    }
    add(ran) {
        const { stdout, stderr, result, error, execution_count, display } = ran.outcome;
        let cell = {
            source: ran.source,
            outcome: { stdout, stderr, result, error, execution_count, display },
            completed: ran.completed,
            at: ran.at,
            elided: null,
            bytes: 0,
        };
        cell.bytes = cellBytes(cell);
        if (cell.bytes > this.maxBytes)
            cell = this.elide(cell);
        this.cells.push(cell);
        this.total += cell.bytes;
        let excess = Math.max(0, this.cells.length - this.maxCells);
        let total = this.total;
        for (let i = 0; i < excess; i++)
            total -= this.cells[i].bytes;
        // Then by bytes, oldest first; the newest cell always stays (elided, it fits the bound on its own).
        while (excess < this.cells.length - 1 && total > this.maxBytes)
            total -= this.cells[excess++].bytes;
        if (excess > 0) {
            this.cells.splice(0, excess);
            this.dropped += excess;
        }
        this.total = total;
    }
    /** A fresh namespace (reset_session): the history of the old one is not the new one's. */
    clear() {
        this.clearedByReset += this.cells.length;
        this.cells = [];
        this.total = 0;
        this.dropped = 0;
    }
    all() {
        return this.cells;
    }
    /** A cell larger than the whole bound: kept, so the notebook shows it ran, with its outputs gone and a note why. */
    elide(cell) {
        const budget = Math.max(0, this.maxBytes - ELIDED_RESERVE);
        const sourceBytes = Buffer.byteLength(cell.source);
        const source = sourceBytes > budget ? Buffer.from(cell.source).subarray(0, budget).toString('utf8') : cell.source;
        const { error } = cell.outcome;
        const elided = `The outputs of this cell took ${cell.bytes} bytes, more than the whole history may hold ` +
            `(--max-history-bytes ${this.maxBytes}), so they are not kept` +
            (source === cell.source ? '.' : `, and its source is cut to its first ${budget} of ${sourceBytes} bytes.`);
        const kept = {
            ...cell,
            source,
            outcome: {
                stdout: '',
                stderr: '',
                result: null,
                error: error && { type: error.type.slice(0, 200), message: error.message.slice(0, ELIDED_ERROR_CHARS), traceback: '' },
                execution_count: cell.outcome.execution_count,
                display: [],
            },
            elided,
        };
        kept.bytes = cellBytes(kept);
        return kept;
    }
}
/** The bytes (UTF-8) of a cell's stored text: source, streams, result, error, display items, the elision note. */
export function cellBytes(cell) {
    const { stdout, stderr, result, error, display } = cell.outcome;
    let n = Buffer.byteLength(cell.source) + Buffer.byteLength(stdout) + Buffer.byteLength(stderr);
    if (result !== null)
        n += Buffer.byteLength(result);
    if (error)
        n += Buffer.byteLength(error.type) + Buffer.byteLength(error.message) + Buffer.byteLength(error.traceback);
    for (const item of display) {
        n += Buffer.byteLength(item.mime_type);
        if (item.path !== undefined)
            n += Buffer.byteLength(item.path);
        if (item.text !== undefined)
            n += Buffer.byteLength(item.text);
    }
    if (cell.elided)
        n += Buffer.byteLength(cell.elided);
    return n;
}
/** A call as Python source, for the notebook (`f(1, 'a', flag=True)`); the arguments are JSON values. */
export function callSource(call) {
    const args = [...call.args.map(pythonLiteral), ...Object.entries(call.kwargs).map(([k, v]) => `${k}=${pythonLiteral(v)}`)];
    return `${call.name}(${args.join(', ')})`;
}
/** A JSON value written as a Python literal (JSON's syntax except true/false/null). */
export function pythonLiteral(value) {
    if (value === null || value === undefined)
        return 'None';
    if (value === true)
        return 'True';
    if (value === false)
        return 'False';
    if (typeof value === 'number')
        return Number.isFinite(value) ? String(value) : 'None';
    if (typeof value === 'string')
        return JSON.stringify(value);
    if (Array.isArray(value))
        return `[${value.map(pythonLiteral).join(', ')}]`;
    if (typeof value === 'object') {
        return `{${Object.entries(value)
            .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
            .join(', ')}}`;
    }
    return 'None';
}
