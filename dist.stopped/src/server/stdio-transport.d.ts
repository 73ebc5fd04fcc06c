import { type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type RequestId } from '@modelcontextprotocol/sdk/types.js';
/**
 * The largest message the server accepts, in bytes, from the largest legitimate inputs: `code` of
 * `maxCodeChars` characters (JSON may spell one character as `\u0000`, 6 bytes) and a `write_file` of
 * `maxFileBytes` bytes sent as base64 (4 bytes per 3). A quarter more plus 1 MiB covers the rest of the
 * message (and a text file that JSON escaping makes up to 1.67 times longer). Defaults (200000 chars,
 * 50 MiB): 88,429,911 bytes.
 */
export declare function maxMessageBytes(limits: {
    maxCodeChars: number;
    maxFileBytes: number;
}): number;
/**
 * One log line for an error the SDK's stdio reader reports through `onerror` (it then reads on): a line
 * that is not JSON, JSON that is not a JSON-RPC message, or a stream error.
 */
export declare function describeStdioError(error: Error): string;
/** What the framer knows about a line it skipped. */
export interface OversizedLine {
    /** Length of the line in bytes, without its newline. */
    bytes: number;
    /** The message's top-level `id`, when it was found (requests have one, notifications do not). */
    id: RequestId | undefined;
    /** The message's top-level `method`, when it was found. */
    method: string | undefined;
}
/**
 * Splits a byte stream into lines of at most `maxLineBytes` bytes (not counting the newline) and hands
 * each complete line, newline included, to `onLine`. A longer line is never held whole: once it passes
 * the limit its bytes are counted, scanned for the message's id and dropped until the next newline, and
 * `onOversized` is told. Empty lines are dropped.
 */
export declare class LineFramer {
    private readonly maxLineBytes;
    private readonly onLine;
    private readonly onOversized;
    private pending;
    private pendingBytes;
    private skipping;
    constructor(maxLineBytes: number, onLine: (line: Buffer) => void, onOversized: (line: OversizedLine) => void);
    push(chunk: Buffer): void;
    /** Forgets any unfinished line. */
    reset(): void;
}
/** Options of {@link BoundedStdioServerTransport}. */
export interface BoundedStdioOptions {
    /** Longest line (one JSON-RPC message) accepted, in bytes; default the SDK's 10 MiB. */
    maxLineBytes?: number;
    /** Where a skipped line is reported, one line each; default stderr. */
    log?: (message: string) => void;
}
/**
 * `StdioServerTransport` whose input never closes it: lines up to `maxLineBytes` reach the SDK's reader
 * whole, one per chunk; a longer line is skipped, logged, and answered with a JSON-RPC error
 * (`InvalidRequest`) when its id could be read, so the client's call fails at once instead of hanging.
 */
export declare class BoundedStdioServerTransport extends StdioServerTransport {
    private readonly framer;
    private readonly input;
    private readonly lines;
    private readonly maxLineBytes;
    private readonly log;
    constructor(input?: Readable, output?: Writable, options?: BoundedStdioOptions);
    private readonly onInput;
    private readonly onInputError;
    start(): Promise<void>;
    close(): Promise<void>;
    private refuse;
}
