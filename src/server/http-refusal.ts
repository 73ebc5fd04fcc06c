/**
 * How the HTTP server refuses a request without the SDK (token, Host, path, budgets, bounds): a JSON-RPC error body
 * with the status, and for a refused body the careful end of its connection, so that a client still sending gets
 * the reply instead of a reset, and nothing more of the body is read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Refusal } from './http-body.js';

/** Answers `status` with a JSON-RPC error (id null: the request was never read as JSON-RPC). */
export function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * A body that was refused, maybe not read to its end. Its connection is closed after the reply and nothing more of
 * it is read, whatever the client asked for: reading and dropping the rest (to keep the connection alive) held it
 * all as garbage until the next collection. On Node 24, 30 refused 2.6 MB bodies raised the server's array buffers
 * from 1 to 62 MB. No refusal: the connection is destroyed.
 */
export function refuseUnreadBody(req: IncomingMessage, res: ServerResponse, refusal: Refusal | null, bodyTimeoutMs: number): void {
  if (!refusal) return void res.destroy();
  // A body too slow for the deadline (408) has stalled: its connection simply closes after the reply.
  const slow = refusal.status === 408;
  const unread = !req.complete;
  refuse(res, refusal.status, refusal.message, { ...(slow || unread ? { connection: 'close' } : {}), ...refusal.headers }, refusal.code);
  if (slow || !unread) return;
  // Closing a socket with unread bytes makes TCP send a reset, which can destroy the reply before the client has read
  // it (seen under load as EPIPE and no reply at all). So the socket is only half-closed (a lingering close, RFC 9112
  // §9.6) and no longer read: TCP's flow control stops the sender, nothing more is buffered here, and the read
  // deadline ends the connection.
  const { socket } = req;
  socket.pause();
  // Node resumes the socket once the reply is finished, to read and drop the rest of the body (IncomingMessage's
  // dump): it is paused again at once. Measured with 30 refused 2.6 MB bodies: the server read all 74 MB without
  // this, 2 MB (what had arrived before the refusal) with it, on Node 20, 22 and 24.
  socket.on('resume', () => socket.pause());
  socket.destroySoon = () => void socket.end();
  const drain = setTimeout(() => req.destroy(), bodyTimeoutMs);
  drain.unref();
  req.once('close', () => clearTimeout(drain));
}
