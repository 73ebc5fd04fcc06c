/**
 * Picks the top-level `id` and `method` out of a JSON-RPC message's bytes as they stream past, so that a line too long
 * to hold (line-framer.ts) can still be answered with an error naming its request. Kept apart from the framer: it is
 * a byte-level JSON tokenizer, with its own invariants (only the outermost object, only short tokens).
 */
import type { RequestId } from '@modelcontextprotocol/server';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest key or value kept while scanning; an id or method longer than this is not reported. */
const MAX_TOKEN_BYTES = 1024;

/**
 * Picks the top-level `id` and `method` out of a JSON object's bytes as they stream past, keeping only
 * short tokens of the outermost object. The SDK's client writes `id` last, after `params`, so the whole
 * line is scanned (3-7 ms per MB measured); nested keys named "id" are not mistaken for it.
 */
export class EnvelopeScanner {
  id: RequestId | undefined;
  method: string | undefined;
  private depth = 0;
  private stopped = false;
  private inString = false;
  private escaped = false;
  /** Bytes of the string or bare value being read in the outermost object, or null. */
  private token: number[] | null = null;
  private tokenTooLong = false;
  /** The last complete string in the outermost object: a key if a ':' follows. */
  private lastString: string | null = null;
  /** The key whose value is being read. */
  private key: string | null = null;

  feed(bytes: Buffer): void {
    const end = bytes.length;
    for (let i = 0; i < end && !this.stopped; i++) {
      if (this.inString && this.depth > 1 && !this.escaped) {
        // Fast path through nested strings (the bulk of a large message): on to the next quote or backslash.
        while (i < end && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH) i++;
        if (i === end) break;
      }
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.depth === 1) this.endString();
          continue;
        }
        if (this.depth === 1) this.keep(b);
        continue;
      }
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
        if (this.depth === 1) this.endBare();
      } else if (this.depth === 0) {
        if (b === 0x7b /* { */) this.depth = 1;
        else this.stopped = true; // a batch, or not JSON: no single id to answer
      } else if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1) this.startToken();
      } else if (b === 0x7b /* { */ || b === 0x5b /* [ */) {
        if (this.depth === 1) this.key = null; // an object or array value is never an id or method
        this.depth++;
      } else if (b === 0x7d /* } */ || b === 0x5d /* ] */) {
        if (this.depth === 1) this.endBare();
        this.depth--;
        if (this.depth === 0) this.stopped = true;
      } else if (this.depth === 1) {
        if (b === 0x3a /* : */) {
          this.key = this.lastString;
          this.lastString = null;
        } else if (b === 0x2c /* , */) {
          this.endBare();
          this.key = null;
        } else {
          if (this.token === null) this.startToken();
          this.keep(b);
        }
      }
    }
  }

  private startToken(): void {
    this.token = [];
    this.tokenTooLong = false;
  }

  private keep(b: number): void {
    if (this.token === null) return;
    if (this.token.length < MAX_TOKEN_BYTES) this.token.push(b);
    else this.tokenTooLong = true;
  }

  private takeToken(): string | null {
    const token = this.token;
    this.token = null;
    return token === null || this.tokenTooLong ? null : Buffer.from(token).toString('utf8');
  }

  private endString(): void {
    const raw = this.takeToken();
    let text: string | null = null;
    try {
      if (raw !== null) text = JSON.parse(`"${raw}"`) as string;
    } catch {
      text = null;
    }
    if (this.key === null) {
      this.lastString = text;
      return;
    }
    if (this.key === 'id' && text !== null) this.id = text;
    if (this.key === 'method' && text !== null) this.method = text;
    this.key = null;
    this.checkDone();
  }

  private endBare(): void {
    if (this.token === null) return;
    const raw = this.takeToken();
    if (this.key === 'id' && raw !== null && /^-?\d{1,15}$/.test(raw)) this.id = Number(raw);
    this.key = null;
    this.checkDone();
  }

  private checkDone(): void {
    if (this.id !== undefined && this.method !== undefined) this.stopped = true;
  }
}
