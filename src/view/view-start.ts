/**
 * Wiring the browser view to a server: which tokens open it (the HTTP server's bearer tokens, or a fresh one when
 * there are none: stdio --view, or --http on loopback without a token), which hosts it answers to, and the line the
 * server logs so that a person can open it (like Jupyter's `…/?token=…`). The token goes to stderr only.
 */
import type { Config } from '../server/config.js';
import { allowedHostNames } from '../server/http-access.js';
import type { TenantTokens } from '../server/http-tenants.js';
import type { SessionManager } from '../sessions/manager.js';
import { freshToken, ViewAccess } from './view-access.js';
import { createViewHandler, VIEW_PATH, type ViewHandler } from './view-server.js';

export interface CreatedView {
  handler: ViewHandler;
  /** What to log once the listener's origin (http://HOST:PORT) is known. */
  urlLine: (origin: string) => string;
}

export function createView(options: {
  manager: SessionManager;
  config: Config;
  /** The HTTP server's tenants, or null: a fresh token is made for the view. */
  tokens: TenantTokens | null;
  /** The address listened on (for the default Host allow-list). */
  host: string;
  allowedHosts: string[] | null;
  log: (message: string) => void;
}): CreatedView {
  const fresh = options.tokens === null ? freshToken() : null;
  const tokens: TenantTokens = options.tokens ?? new Map([['default', fresh!]]);
  const handler = createViewHandler({
    manager: options.manager,
    config: options.config,
    access: new ViewAccess(tokens),
    allowedHosts: allowedHostNames(options.host, options.allowedHosts),
    control: options.config.view.control,
    log: options.log,
  });
  return {
    handler,
    urlLine: (origin) =>
      fresh !== null
        ? `view: ${origin}${VIEW_PATH}?token=${fresh}`
        : `view: ${origin}${VIEW_PATH}?token=<a bearer token of this server> (the token is exchanged for a cookie)`,
  };
}
