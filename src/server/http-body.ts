/**
 * Reading one Streamable HTTP request body under byte budgets. The SDK's transport would read each body by itself,
 * bounded per request only: five 76 MB bodies in flight at once aborted a 320 MB-heap server, and about 55 ended a
 * default one. Here every byte is counted against the server's budget and the client's budget as it arrives, and
 * held until the request's response ends (the parsed body lives that long), so the bodies in memory are bounded
 * by the budgets whatever the clients send.
 *
 * Life of a POST body (the reply at each step):
 *   Content-Length > largest message ................... 413, nothing read
 *   Content-Length can never fit a budget .............. 413, nothing read
 *   Content-Length does not fit a budget now ........... 503 + Retry-After, nothing read
 *   bytes arrive (chunked: counted one chunk at a time)
 *     past the largest message ......................... 413
 *     past a budget .................................... 413 if it can never fit, else 503 + Retry-After
 *     not all there within the read deadline ........... 408
 *     connection aborted ............................... (no reply) budget released
 *   JSON.parse fails ................................... 400, JSON-RPC parse error -32700
 *   parsed: handed to the SDK; the budget is released when the response ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies up to this size may use the last RESERVE_BYTES of the server's budget; larger ones may not. */
export const SMALL_BODY_BYTES = 64 * 1024;
/**
 * The part of the server's budget kept for small bodies (pings, tools/list, most tool calls), so that clients
 * flooding the server with large bodies cannot stop everyone else's small calls.
 */
export const RESERVE_BYTES = 2 ** 20;

/** A number of bytes that may be held at once, taken and given back by the requests that hold them. */
export class ByteBudget {
  private used = 0;

  /**
   * @param limit Most bytes held at once.
   * @param flag The flag that sets it, named in refusals.
   */
  constructor(
    readonly limit: number,
    readonly flag: string,
  ) {}

  /** Bytes held now. */
  get held(): number {
    return this.used;
  }

  /** Takes `bytes` if they fit while leaving `reserve` free; false (nothing taken) otherwise. */
  take(bytes: number, reserve = 0): boolean {
    if (this.used + bytes > this.limit - reserve) return false;
    this.used += bytes;
    return true;
  }

  /** Gives back `bytes` taken earlier. */
  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** A refusal: the HTTP status, the JSON-RPC error and extra headers. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

export type BodyResult = { ok: true; body: unknown } | { ok: false; refusal: Refusal | null };

export interface BodyLimits {
  /** Largest body, in bytes (413 beyond it). */
  maxBytes: number;
  /** The server's budget, with the reserve for small bodies. */
  server: ByteBudget;
  /** The client's budget; null before a client exists (initialize). */
  client: ByteBudget | null;
  /** Milliseconds the whole body has to arrive in (408 after). */
  deadlineMs: number;
}

/** Seconds a refused client is told to wait (Retry-After): bodies in flight are released as their calls end. */
const RETRY_AFTER_SECONDS = '2';

/**
 * Reads and parses a JSON body under `limits`. The bytes stay taken from the budgets until `res` closes (finished
 * or aborted), however the read ends. `{ok: false, refusal: null}`: the connection went away, nothing to answer.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<BodyResult> {
  const { maxBytes, server, client } = limits;
  let taken = 0;
  res.once('close', () => {
    server.give(taken);
    client?.give(taken);
    taken = 0;
  });
  /** Takes `bytes` more from both budgets, or returns the refusal naming the one that is full. */
  const take = (bytes: number, bodySize: number): Refusal | null => {
    const reserve = bodySize > SMALL_BODY_BYTES ? RESERVE_BYTES : 0;
    if (client && !client.take(bytes)) return refusal(client, 0, 'this client', bodySize);
    if (!server.take(bytes, reserve)) {
      client?.give(bytes);
      return refusal(server, reserve, 'the server (all clients)', bodySize);
    }
    taken += bytes;
    return null;
  };

  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && declared > maxBytes) return Promise.resolve({ ok: false, refusal: tooLarge(maxBytes) });
  if (declared !== null && declared > 0) {
    // Security: the whole declared length is taken before reading, so a body that cannot fit is refused at once.
    const refused = take(declared, declared);
    if (refused) return Promise.resolve({ ok: false, refusal: refused });
  }

  return new Promise<BodyResult>((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      if (!result.ok) chunks.length = 0;
      resolve(result);
    };
    // Security: a slow body (slow loris) cannot hold its share of the budgets for longer than this.
    const deadline = setTimeout(() => settle({ ok: false, refusal: tooSlow(limits.deadlineMs) }), limits.deadlineMs);
    deadline.unref();
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return settle({ ok: false, refusal: tooLarge(maxBytes) });
      if (received > taken) {
        const refused = take(received - taken, received);
        if (refused) return settle({ ok: false, refusal: refused });
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, received).toString('utf8');
      chunks.length = 0;
      try {
        settle({ ok: true, body: JSON.parse(text) });
      } catch {
        settle({ ok: false, refusal: { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' } });
      }
    };
    // Aborted before the end: nobody to answer; the budget goes back when the response closes.
    const onClose = () => settle({ ok: false, refusal: null });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
  });
}

function tooLarge(maxBytes: number): Refusal {
  return {
    status: 413,
    code: -32000,
    message: `Payload Too Large: a request body may have at most ${maxBytes} bytes (set by --max-code-chars and --max-file-bytes). Send a smaller one: split a file into several writes.`,
  };
}

function tooSlow(deadlineMs: number): Refusal {
  return {
    status: 408,
    code: -32000,
    message: `Request Timeout: the request body did not arrive within ${deadlineMs / 1000} s (--http-body-timeout). Send it faster, or send a smaller one.`,
  };
}

/** 413 when the body could never fit the budget (a budget set below the largest message), else 503: retry later. */
function refusal(budget: ByteBudget, reserve: number, whose: string, bodySize: number): Refusal {
  if (bodySize <= budget.limit - reserve) return exhausted(budget, whose, bodySize);
  return {
    status: 413,
    code: -32000,
    message: `Payload Too Large: a request body of ${bodySize} bytes can never fit ${budget.limit - reserve} bytes for ${whose} (${budget.flag}). Send a smaller one (split a file into several writes), or ask the operator to raise ${budget.flag}.`,
  };
}

function exhausted(budget: ByteBudget, whose: string, bodySize: number): Refusal {
  return {
    status: 503,
    code: -32000,
    message: `Service Unavailable: request bodies in flight for ${whose} would exceed ${budget.limit} bytes (${budget.flag}; ${budget.held} held now, this one ${bodySize}). Retry after the bodies in flight are answered.`,
    headers: { 'retry-after': RETRY_AFTER_SECONDS },
  };
}
