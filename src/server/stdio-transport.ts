/**
 * The CLI's stdio transport: the SDK's `StdioServerTransport`, fed one whole line at a time by a framer
 * (line-framer.ts) that bounds the size of a line and skips a longer one instead of buffering it.
 *
 * Why (measured on SDK 1.32.2, `shared/stdio.js`; SDK 2.4's `ReadBuffer` is the same): its `ReadBuffer` throws
 * once the bytes it holds (the unfinished line plus the new chunk) pass `maxBufferSize`, 10 MiB by default; the
 * transport then reports the error and closes itself, and a closed transport ends this server with every session
 * in it. A `write_file` of an 8 MB file (10.7 MB of base64) or a 12 MB `code` did exactly that, without a reply.
 *
 * Each whole line is parsed here (the SDK's `deserializeMessage`) and handed to `onmessage`, or reported through
 * `onerror` when it is not JSON-RPC: SDK 2.4's reader drops a line that is not JSON without a word, and a client
 * author debugging a broken client wants the line named in the log.
 */
import process from 'node:process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { deserializeMessage, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { LineFramer, type OversizedLine } from './line-framer.js';

/**
 * The largest message the server accepts, in bytes, from the largest legitimate inputs: `code` of
 * `maxCodeChars` characters (JSON may spell one character as `\u0000`, 6 bytes) and a `write_file` of
 * `maxFileBytes` bytes sent as base64 (4 bytes per 3). A quarter more plus 1 MiB covers the rest of the
 * message (and a text file that JSON escaping makes up to 1.67 times longer). Defaults (200000 chars,
 * 50 MiB): 88,429,911 bytes.
 */
export function maxMessageBytes(limits: { maxCodeChars: number; maxFileBytes: number }): number {
  const content = Math.max(6 * limits.maxCodeChars, 4 * Math.ceil(limits.maxFileBytes / 3));
  return Math.ceil(content * 1.25) + 2 ** 20;
}

/**
 * One log line for an error the SDK's stdio reader reports through `onerror` (it then reads on): a line
 * that is not JSON, JSON that is not a JSON-RPC message, or a stream error.
 */
export function describeStdioError(error: Error): string {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').slice(0, 300);
  if (error instanceof SyntaxError) return `ignored a line that is not JSON (${oneLine(error.message)})`;
  if (error.name === 'ZodError') return 'ignored a line that is JSON but not a JSON-RPC message';
  return oneLine(error.message);
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
export class BoundedStdioServerTransport extends StdioServerTransport {
  private readonly framer: LineFramer;
  private readonly input: Readable;
  private readonly lines: PassThrough;
  private readonly maxLineBytes: number;
  private readonly log: (message: string) => void;

  constructor(input: Readable = process.stdin, output: Writable = process.stdout, options: BoundedStdioOptions = {}) {
    const lines = new PassThrough();
    // The SDK's own reader is given no bytes (lines are parsed in deliver()); its stream only carries the end of
    // input, so the SDK closes the transport at EOF as it does over process.stdin.
    super(lines, output, { maxBufferSize: Number.POSITIVE_INFINITY });
    this.input = input;
    this.lines = lines;
    this.maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.log = options.log ?? ((message) => process.stderr.write(`${message}\n`));
    this.framer = new LineFramer(
      this.maxLineBytes,
      (line) => this.deliver(line),
      (line) => this.refuse(line),
    );
  }

  private readonly onInput = (chunk: Buffer | string) => {
    this.framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onInputEnd = () => {
    this.lines.end();
  };

  /** One whole line: a JSON-RPC message for the SDK, or an error reported (and the next line read). */
  private deliver(line: Buffer): void {
    let message;
    try {
      // The framer keeps the newline; the SDK's reader strips it (and a \r before it) before parsing, as here.
      message = deserializeMessage(line.toString('utf8').replace(/\r?\n$/, ''));
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  override async start(): Promise<void> {
    await super.start();
    this.input.on('data', this.onInput);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onInputEnd);
  }

  override async close(): Promise<void> {
    this.input.off('data', this.onInput);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onInputEnd);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.framer.reset();
    await super.close();
  }

  private refuse({ bytes, id, method }: OversizedLine): void {
    // The method and id are the client's text: printable ASCII only, so a log line stays one line.
    const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
    const what = `${method === undefined ? 'a message' : printable(method)}${id === undefined ? '' : ` (id ${printable(JSON.stringify(id))})`}`;
    this.log(
      `skipped ${what} of ${bytes} bytes: over the limit of ${this.maxLineBytes} bytes per message; ${id === undefined ? 'no id to answer' : 'answered with an error'}`,
    );
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: ProtocolErrorCode.InvalidRequest,
        message:
          `Request of ${bytes} bytes is over this server's limit of ${this.maxLineBytes} bytes per message ` +
          '(set from --max-code-chars and --max-file-bytes), so it was not processed. Send less per call: split code ' +
          'into several execute_code calls (variables persist between them), or write a large file in parts with ' +
          'write_file append: true.',
      },
    }).catch((error: Error) => this.onerror?.(error));
  }
}
