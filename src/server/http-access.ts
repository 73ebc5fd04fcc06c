/**
 * Who may talk to the Streamable HTTP server: the Host/Origin allow-list (DNS-rebinding protection) and the rule
 * that a non-loopback address needs a token (the tokens themselves, one per tenant: src/server/http-tenants.ts).
 * Pure functions, so every case is unit-tested.
 */
import { isIP } from 'node:net';

/** Host names a loopback server answers to by default. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether a bind address only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * Why the server must not start, or null. Security: without a token, anyone who can reach the port can run code;
 * on loopback that is this machine's users (and DNS rebinding, which the Host check stops), beyond it the network.
 */
export function exposureProblem(host: string, hasToken: boolean): string | null {
  if (hasToken || isLoopback(host)) return null;
  return `refusing to serve on ${host} without --auth-token: anyone who can reach it could run code on this machine. Set PYODIDE_MCP_AUTH_TOKEN (or --auth-token), or PYODIDE_MCP_AUTH_TOKEN_FILE for several tenants, or bind to 127.0.0.1.`;
}

/** The host names a server bound to `host` answers to: the operator's list, loopback names on loopback, else any. */
export function allowedHostNames(host: string, configured: string[] | null): Set<string> | null {
  if (configured) return new Set(configured.map((name) => name.toLowerCase()));
  return isLoopback(host) ? new Set(LOOPBACK_NAMES) : null;
}

/**
 * Whether a request's Host and Origin headers name an allowed host (ports are not compared, like the SDK's
 * hostHeaderValidation middleware). Security: a web page that rebinds its own name to 127.0.0.1 sends its own name
 * as Host, and a page of another site sends its Origin; both are refused. Clients outside a browser send no Origin.
 */
export function hostAllowed(allowed: Set<string> | null, hostHeader: string | undefined, originHeader: string | undefined): boolean {
  if (allowed === null) return true;
  const hostname = (url: string) => {
    try {
      return new URL(url).hostname.toLowerCase();
    } catch {
      return null;
    }
  };
  // Security: only a bare host[:port]; `evil.example@127.0.0.1` would parse as 127.0.0.1.
  if (hostHeader === undefined || !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(hostHeader)) return false;
  const host = hostname(`http://${hostHeader}`);
  if (host === null || !allowed.has(host)) return false;
  if (originHeader === undefined) return true;
  const origin = hostname(originHeader);
  // An origin is exactly scheme://host[:port]; "null" (a sandboxed frame, a file) is refused.
  return origin !== null && new URL(originHeader).origin === originHeader && allowed.has(origin);
}
