/**
 * Who may see the browser view: a token (the stdio listener's fresh one, or the HTTP server's bearer tokens, one per
 * tenant) presented once, in the URL's `?token=` or an `Authorization: Bearer` header, and exchanged for a cookie
 * (HttpOnly, SameSite=Strict, Path=/view) that names a random view login, never the token itself. Logins are held
 * in a bounded map (MAX_LOGINS, oldest dropped) and expire after LOGIN_TTL_MS.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tenantResolver, type TenantTokens } from '../server/http-tenants.js';

export const COOKIE_NAME = 'pyodide_mcp_view';
/** View logins held at once; a new one past it drops the oldest (that browser logs in again with the token). */
const MAX_LOGINS = 256;
const LOGIN_TTL_MS = 24 * 3600 * 1000;

export class ViewAccess {
  private readonly tenantOf: (req: Pick<IncomingMessage, 'headers'>) => string | null;
  /** Login id (the cookie's value) → tenant and when it ends; a Map keeps insertion order, so the oldest is first. */
  private readonly logins = new Map<string, { tenant: string; until: number }>();

  /** `tokens`: tenant → token; never null here (the stdio listener and an HTTP server without tokens make one). */
  constructor(tokens: TenantTokens) {
    this.tenantOf = tenantResolver(tokens);
  }

  /** The tenant a token belongs to (constant-time comparison), or null. */
  tenantOfToken(token: string): string | null {
    return this.tenantOf({ headers: { authorization: `Bearer ${token}` } });
  }

  /** The tenant of a request: its view cookie, else its bearer header; null when it has neither (401). */
  tenantOfRequest(req: IncomingMessage): string | null {
    const login = cookieValue(req.headers.cookie, COOKIE_NAME);
    if (login !== null) {
      const found = this.logins.get(login);
      if (found && found.until > Date.now()) return found.tenant;
      if (found) this.logins.delete(login);
    }
    if (req.headers.authorization !== undefined) return this.tenantOf(req);
    return null;
  }

  /** A new login for `tenant`: the Set-Cookie header value. */
  login(tenant: string): string {
    const id = randomBytes(24).toString('base64url');
    this.logins.set(id, { tenant, until: Date.now() + LOGIN_TTL_MS });
    while (this.logins.size > MAX_LOGINS) this.logins.delete(this.logins.keys().next().value!);
    return `${COOKIE_NAME}=${id}; HttpOnly; SameSite=Strict; Path=/view; Max-Age=${LOGIN_TTL_MS / 1000}`;
  }
}

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** A fresh token for a view that has none of its own (stdio --view; --http without a token). */
export function freshToken(): string {
  return randomBytes(24).toString('base64url');
}
