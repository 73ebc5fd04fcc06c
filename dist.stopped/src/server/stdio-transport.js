/**
 * The CLI's stdio transport: the SDK's `StdioServerTransport`, fed one whole line at a time by a framer
 * that bounds the size of a line and skips a longer one instead of buffering it.
 *
 * Why (measured on SDK 1.32.2, `shared/stdio.js`): its `ReadBuffer` throws once the bytes it holds (the
 * unfinished line plus the new chunk) pass `maxBufferSize`, 10 MiB by default; the transport then reports
 * the error and closes itself, and a closed transport ends this server with every session in it. A
 * `write_file` of an 8 MB file (10.7 MB of base64) or a 12 MB `code` did exactly that, without a reply.
 * A line that is not valid JSON-RPC is already survivable there: the SDK reports it through `onerror`
 * and reads on.
 */
import process from 'node:process';
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
const NEWLINE = 0x0a;
/**
 * The largest message the server accepts, in bytes, from the largest legitimate inputs: `code` of
 * `maxCodeChars` characters (JSON may spell one character as `\u0000`, 6 bytes) and a `write_file` of
 * `maxFileBytes` bytes sent as base64 (4 bytes per 3). A quarter more plus 1 MiB covers the rest of the
 * message (and a text file that JSON escaping makes up to 1.67 times longer). Defaults (200000 chars,
 * 50 MiB): 88,429,911 bytes.
 */
export function maxMessageBytes(limits) {
    const content = Math.max(6 * limits.maxCodeChars, 4 * Math.ceil(limits.maxFileBytes / 3));
    return Math.ceil(content * 1.25) + 2 ** 20;
}
/**
 * One log line for an error the SDK's stdio reader reports through `onerror` (it then reads on): a line
 * that is not JSON, JSON that is not a JSON-RPC message, or a stream error.
 */
export function describeStdioError(error) {
    const oneLine = (text) => text.replace(/\s+/g, ' ').slice(0, 300);
    if (error instanceof SyntaxError)
        return `ignored a line that is not JSON (${oneLine(error.message)})`;
    if (error.name === 'ZodError')
        return 'ignored a line that is JSON but not a JSON-RPC message';
    return oneLine(error.message);
}
/**
 * Splits a byte stream into lines of at most `maxLineBytes` bytes (not counting the newline) and hands
 * each complete line, newline included, to `onLine`. A longer line is never held whole: once it passes
 * the limit its bytes are counted, scanned for the message's id and dropped until the next newline, and
 * `onOversized` is told. Empty lines are dropped.
 */
export class LineFramer {
    maxLineBytes;
    onLine;
    onOversized;
    pending = [];
    pendingBytes = 0;
    skipping = null;
    constructor(maxLineBytes, onLine, onOversized) {
        this.maxLineBytes = maxLineBytes;
        this.onLine = onLine;
        this.onOversized = onOversized;
    }
    push(chunk) {
        let start = 0;
        while (start < chunk.length) {
            const newline = chunk.indexOf(NEWLINE, start);
            const end = newline === -1 ? chunk.length : newline + 1;
            const piece = chunk.subarray(start, end);
            const body = newline === -1 ? piece : piece.subarray(0, piece.length - 1);
            start = end;
            if (!this.skipping && this.pendingBytes + body.length > this.maxLineBytes) {
                // Security: a line past the limit is never buffered whole (memory stays bounded by the limit);
                // what was held of it is scanned for its id and released.
                const scanner = new EnvelopeScanner();
                for (const held of this.pending)
                    scanner.feed(held);
                this.skipping = { bytes: this.pendingBytes, scanner };
                this.pending = [];
                this.pendingBytes = 0;
            }
            if (this.skipping) {
                this.skipping.bytes += body.length;
                this.skipping.scanner.feed(body);
                if (newline !== -1) {
                    const { bytes, scanner } = this.skipping;
                    this.skipping = null;
                    this.onOversized({ bytes, id: scanner.id, method: scanner.method });
                }
                continue;
            }
            this.pending.push(piece);
            this.pendingBytes += piece.length;
            if (newline !== -1) {
                const line = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
                this.pending = [];
                this.pendingBytes = 0;
                if (line.length > 1 && !(line.length === 2 && line[0] === 0x0d))
                    this.onLine(line);
            }
        }
    }
    /** Forgets any unfinished line. */
    reset() {
        this.pending = [];
        this.pendingBytes = 0;
        this.skipping = null;
    }
}
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest key or value kept while scanning; an id or method longer than this is not reported. */
const MAX_TOKEN_BYTES = 1024;
/**
 * Picks the top-level `id` and `method` out of a JSON object's bytes as they stream past, keeping only
 * short tokens of the outermost object. The SDK's client writes `id` last, after `params`, so the whole
 * line is scanned (3-7 ms per MB measured); nested keys named "id" are not mistaken for it.
 */
class EnvelopeScanner {
    id;
    method;
    depth = 0;
    stopped = false;
    inString = false;
    escaped = false;
    /** Bytes of the string or bare value being read in the outermost object, or null. */
    token = null;
    tokenTooLong = false;
    /** The last complete string in the outermost object: a key if a ':' follows. */
    lastString = null;
    /** The key whose value is being read. */
    key = null;
    feed(bytes) {
        const end = bytes.length;
        for (let i = 0; i < end && !this.stopped; i++) {
            if (this.inString && this.depth > 1 && !this.escaped) {
                // Fast path through nested strings (the bulk of a large message): on to the next quote or backslash.
                while (i < end && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH)
                    i++;
                if (i === end)
                    break;
            }
            const b = bytes[i];
            if (this.inString) {
                if (this.escaped)
                    this.escaped = false;
                else if (b === BACKSLASH)
                    this.escaped = true;
                else if (b === QUOTE) {
                    this.inString = false;
                    if (this.depth === 1)
                        this.endString();
                    continue;
                }
                if (this.depth === 1)
                    this.keep(b);
                continue;
            }
            if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
                if (this.depth === 1)
                    this.endBare();
            }
            else if (this.depth === 0) {
                if (b === 0x7b /* { */)
                    this.depth = 1;
                else
                    this.stopped = true; // a batch, or not JSON: no single id to answer
            }
            else if (b === QUOTE) {
                this.inString = true;
                if (this.depth === 1)
                    this.startToken();
            }
            else if (b === 0x7b /* { */ || b === 0x5b /* [ */) {
                if (this.depth === 1)
                    this.key = null; // an object or array value is never an id or method
                this.depth++;
            }
            else if (b === 0x7d /* } */ || b === 0x5d /* ] */) {
                if (this.depth === 1)
                    this.endBare();
                this.depth--;
                if (this.depth === 0)
                    this.stopped = true;
            }
            else if (this.depth === 1) {
                if (b === 0x3a /* : */) {
                    this.key = this.lastString;
                    this.lastString = null;
                }
                else if (b === 0x2c /* , */) {
                    this.endBare();
                    this.key = null;
                }
                else {
                    if (this.token === null)
                        this.startToken();
                    this.keep(b);
                }
            }
        }
    }
    startToken() {
        this.token = [];
        this.tokenTooLong = false;
    }
    keep(b) {
        if (this.token === null)
            return;
        if (this.token.length < MAX_TOKEN_BYTES)
            this.token.push(b);
        else
            this.tokenTooLong = true;
    }
    takeToken() {
        const token = this.token;
        this.token = null;
        return token === null || this.tokenTooLong ? null : Buffer.from(token).toString('utf8');
    }
    endString() {
        const raw = this.takeToken();
        let text = null;
        try {
            if (raw !== null)
                text = JSON.parse(`"${raw}"`);
        }
        catch {
            text = null;
        }
        if (this.key === null) {
            this.lastString = text;
            return;
        }
        if (this.key === 'id' && text !== null)
            this.id = text;
        if (this.key === 'method' && text !== null)
            this.method = text;
        this.key = null;
        this.checkDone();
    }
    endBare() {
        if (this.token === null)
            return;
        const raw = this.takeToken();
        if (this.key === 'id' && raw !== null && /^-?\d{1,15}$/.test(raw))
            this.id = Number(raw);
        this.key = null;
        this.checkDone();
    }
    checkDone() {
        if (this.id !== undefined && this.method !== undefined)
            this.stopped = true;
    }
}
/**
 * `StdioServerTransport` whose input never closes it: lines up to `maxLineBytes` reach the SDK's reader
 * whole, one per chunk; a longer line is skipped, logged, and answered with a JSON-RPC error
 * (`InvalidRequest`) when its id could be read, so the client's call fails at once instead of hanging.
 */
export class BoundedStdioServerTransport extends StdioServerTransport {
    framer;
    input;
    lines;
    maxLineBytes;
    log;
    constructor(input = process.stdin, output = process.stdout, options = {}) {
        const lines = new PassThrough();
        // The framer bounds every line, and each chunk the SDK reads is one whole line, so its own buffer
        // check could only ever turn into a closed transport: it is lifted.
        super(lines, output, { maxBufferSize: Number.POSITIVE_INFINITY });
        this.input = input;
        this.lines = lines;
        this.maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
        this.log = options.log ?? ((message) => process.stderr.write(`${message}\n`));
        this.framer = new LineFramer(this.maxLineBytes, (line) => this.lines.write(line), (line) => this.refuse(line));
    }
    onInput = (chunk) => {
        this.framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    onInputError = (error) => {
        this.onerror?.(error);
    };
    async start() {
        await super.start();
        this.input.on('data', this.onInput);
        this.input.on('error', this.onInputError);
    }
    async close() {
        this.input.off('data', this.onInput);
        this.input.off('error', this.onInputError);
        if (this.input.listenerCount('data') === 0)
            this.input.pause();
        this.framer.reset();
        await super.close();
    }
    refuse({ bytes, id, method }) {
        // The method and id are the client's text: printable ASCII only, so a log line stays one line.
        const printable = (text) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
        const what = `${method === undefined ? 'a message' : printable(method)}${id === undefined ? '' : ` (id ${printable(JSON.stringify(id))})`}`;
        this.log(`skipped ${what} of ${bytes} bytes: over the limit of ${this.maxLineBytes} bytes per message; ${id === undefined ? 'no id to answer' : 'answered with an error'}`);
        if (id === undefined)
            return;
        void this.send({
            jsonrpc: '2.0',
            id,
            error: {
                code: ErrorCode.InvalidRequest,
                message: `Request of ${bytes} bytes is over this server's limit of ${this.maxLineBytes} bytes per message ` +
                    '(set from --max-code-chars and --max-file-bytes), so it was not processed. Send less per call: split code ' +
                    'into several execute_code calls (variables persist between them), or write a large file in parts with ' +
                    'write_file append: true.',
            },
        }).catch((error) => this.onerror?.(error));
    }
}
