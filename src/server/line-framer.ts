/**
 * Splits stdin into lines of bounded length for the stdio transport (stdio-transport.ts says why): a line past the
 * bound is never held whole, only counted and scanned for its id (envelope-scanner.ts) until its newline.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { EnvelopeScanner } from './envelope-scanner.js';

const NEWLINE = 0x0a;

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
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping: { bytes: number; scanner: EnvelopeScanner } | null = null;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: (line: OversizedLine) => void,
  ) {}

  push(chunk: Buffer): void {
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
        for (const held of this.pending) scanner.feed(held);
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
        const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
        this.pending = [];
        this.pendingBytes = 0;
        if (line.length > 1 && !(line.length === 2 && line[0] === 0x0d)) this.onLine(line);
      }
    }
  }

  /** Forgets any unfinished line. */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = null;
  }
}
