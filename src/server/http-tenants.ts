/**
 * Tenants of the Streamable HTTP server: who a request is, by its bearer token. `--auth-token` is one tenant
 * ("default"); `--auth-token-file` names several, one `name=token` line each. A tenant sees only its own Python
 * sessions: the server gives each tenant a SessionScope over the manager and each of its clients (MCP sessions) a
 * scope over the tenant's, and an MCP session id is only valid with the token that opened it.
 *
 * `tenantResolver` is the one function that maps a request to its tenant. Everything that confines a caller starts
 * from its answer, not from the MCP session: a client without an MCP session (the 2026-07-28 protocol has no
 * Mcp-Session-Id) is confined by its token alone, through a scope of its tenant's (http-modern.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, constants as fs } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { UsageError } from '../errors.js';

/** The tenant of `--auth-token`, and of every request when the server has no token (loopback only). */
export const DEFAULT_TENANT = 'default';
/** A tenant name: it appears in logs and in --state-dir's meta.json, never in a reply. */
const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** A token: what `Authorization: Bearer <token>` can carry (no spaces), 16 to 4096 characters like --auth-token. */
const TOKEN = /^\S{16,4096}$/;
/** Bounds of a token file: the server reads it once at start. */
const MAX_FILE_BYTES = 1 << 20;
const MAX_TENANTS = 1000;

/** Tenant name to token. */
export type TenantTokens = ReadonlyMap<string, string>;

/**
 * Parses a token file: `name=token` per line; blank lines and lines starting with `#` are skipped; spaces around
 * the name and the token are trimmed. Throws a UsageError naming the line for a bad name, a bad token, a name or a
 * token given twice.
 */
export function parseTokenFile(text: string, source: string): Map<string, string> {
  const tenants = new Map<string, string>();
  const owners = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${source} line ${index + 1}`;
    const eq = line.indexOf('=');
    if (eq < 0) throw new UsageError(`${where}: expected name=token (a tenant name, "=", then its bearer token).`);
    const name = line.slice(0, eq).trim();
    const token = line.slice(eq + 1).trim();
    if (!TENANT_NAME.test(name)) {
      throw new UsageError(`${where}: bad tenant name: use 1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit.`);
    }
    // The token itself is never echoed: the message may end up in a log.
    if (!TOKEN.test(token)) throw new UsageError(`${where}: the token of "${name}" must be 16 to 4096 characters without spaces.`);
    if (tenants.has(name)) throw new UsageError(`${where}: tenant "${name}" is named twice; give each tenant one line.`);
    const other = owners.get(token);
    if (other !== undefined) throw new UsageError(`${where}: "${name}" has the same token as "${other}"; every tenant needs its own.`);
    if (tenants.size >= MAX_TENANTS) throw new UsageError(`${source}: more than ${MAX_TENANTS} tenants.`);
    tenants.set(name, token);
    owners.set(token, name);
  }
  if (tenants.size === 0) throw new UsageError(`${source} names no tenant: add lines of name=token.`);
  return tenants;
}

/**
 * Reads a token file. Security: refused when group or others may write it (they could add a tenant of their own),
 * when it is not a regular file, or over 1 MiB; a file others may read is used with a warning in the log (a
 * mounted secret is often 0644 inside its container).
 */
export function readTokenFile(path: string, log: (message: string) => void): Map<string, string> {
  const source = `--auth-token-file ${path}`;
  let fd: number;
  try {
    fd = openSync(path, fs.O_RDONLY | fs.O_NOFOLLOW);
  } catch (error) {
    throw new UsageError(`Cannot read ${source}: ${(error as Error).message}.`, { cause: error });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${source} is not a regular file.`);
    if (stat.mode & 0o022) {
      throw new UsageError(`${source} is writable by group or others, who could add a tenant of their own; chmod 600 it (or 640, 400).`);
    }
    if (stat.mode & 0o004) log(`warning: ${source} is readable by other users, who could then use its tokens; chmod 600 it.`);
    if (stat.size > MAX_FILE_BYTES) throw new UsageError(`${source} is larger than 1 MiB.`);
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return parseTokenFile(data.subarray(0, read).toString('utf8'), source);
  } finally {
    closeSync(fd);
  }
}

/**
 * The tenants the server serves: `--auth-token` as "default", then the file's. Null when neither is given: no
 * token is asked for (loopback only, see exposureProblem) and every request is the one default tenant.
 */
export function tenantTokens(authToken: string | null, fileTenants: Map<string, string> | null): TenantTokens | null {
  if (authToken === null && fileTenants === null) return null;
  const tenants = new Map<string, string>();
  if (authToken !== null) tenants.set(DEFAULT_TENANT, authToken);
  for (const [name, token] of fileTenants ?? []) {
    if (name === DEFAULT_TENANT && authToken !== null) {
      throw new UsageError(`--auth-token-file names a tenant "${DEFAULT_TENANT}", which is --auth-token's: rename it.`);
    }
    if (token === authToken)
      throw new UsageError(`--auth-token-file gives "${name}" the token of --auth-token; every tenant needs its own.`);
    tenants.set(name, token);
  }
  return tenants;
}

/**
 * The function that maps a request to its tenant: the name whose token the `Authorization: Bearer` header carries,
 * or null (the request is refused with 401). Without tokens every request is DEFAULT_TENANT. Security: the given
 * token is hashed once and compared with every tenant's hash in constant time, with no early exit, so neither the
 * time nor anything else tells which tenant, or which characters of a token, came close.
 */
export function tenantResolver(tokens: TenantTokens | null): (req: Pick<IncomingMessage, 'headers'>) => string | null {
  if (tokens === null) return () => DEFAULT_TENANT;
  const hashes = [...tokens].map(([name, token]) => ({ name, hash: sha256(token) }));
  return (req) => {
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    const given = sha256(match?.[1] ?? '');
    let found: string | null = null;
    for (const tenant of hashes) if (timingSafeEqual(given, tenant.hash)) found = tenant.name;
    return match === null ? null : found;
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
