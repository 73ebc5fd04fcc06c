/**
 * The browser view: a read-only notebook of each session, served at /view (sessions) and /view/<session> (one
 * notebook), by the --http server beside /mcp or, in stdio mode, by a loopback listener of its own (--view).
 *
 * Security (Python's output is attacker-controlled; SECURITY.md, "The browser view"):
 * - every request is checked like /mcp: the token first (a view login cookie, or a bearer token; a `?token=` in a
 *   page's URL is exchanged once for the cookie, src/view/view-access.ts), then Host/Origin (--allowed-hosts);
 * - pages carry a strict Content-Security-Policy (scripts and styles from /view/assets only; no inline script);
 * - nothing a session produced is put in the page's DOM as HTML: text goes in as text, images as <img>, and HTML
 *   (a `_repr_html_`, a Plotly file) only through an <iframe sandbox> without allow-same-origin whose response carries
 *   `Content-Security-Policy: sandbox` too, so it runs in an opaque origin: it cannot read the cookie (HttpOnly
 *   anyway), the page, or call the API (SameSite=Strict withholds the cookie, and the API refuses any request whose
 *   Sec-Fetch-Site is not same-origin);
 * - each tenant sees only the sessions it created (and those of stdio and the library, which have no tenant);
 * - read-only: the only action is Interrupt, with --view-control, as a POST from the page's own origin.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PyodideMcpError } from '../errors.js';
import type { Config } from '../server/config.js';
import { hostAllowed } from '../server/http-access.js';
import { listenOn } from '../server/http-listen.js';
import { capListing, MAX_LISTED, SHORT_CHARS } from '../server/namespace-reply.js';
import { notebookBytes } from '../server/notebook-export.js';
import type { SessionManager } from '../sessions/manager.js';
import type { SessionEventLog, StreamedEvent } from '../sessions/view-events.js';
import { viewAsset } from './view-assets.js';
import { ViewAccess } from './view-access.js';

export const VIEW_PATH = '/view';
/** Event streams open at once, server-wide: one more is refused (503). */
const MAX_STREAMS = 64;
/** Bytes an event stream may have waiting for a slow viewer before it is cut (the page reconnects and resumes). */
const MAX_STREAM_BACKLOG = 8 * 2 ** 20;
const HEARTBEAT_MS = 15_000;

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** A session's HTML shown in a frame: no script, no network, inline styles (a DataFrame's table) allowed. */
const HTML_FRAME_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";
/** A session's HTML file that needs its scripts (a Plotly chart): scripts in an opaque origin, still no network. */
const SCRIPT_FRAME_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; " +
  "img-src data: blob:; font-src data:; frame-ancestors 'self'";
/** Any other file: never a document of this origin. */
const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'self'";

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};

export interface ViewOptions {
  manager: SessionManager;
  config: Config;
  access: ViewAccess;
  /** Host names allowed in Host/Origin (null: any, for a server with a token beyond loopback). */
  allowedHosts: Set<string> | null;
  /** --view-control: an Interrupt button. */
  control: boolean;
  log: (message: string) => void;
}

/** The view's request handler: true when the request was for /view (and is answered), false otherwise. */
export type ViewHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export function createViewHandler(options: ViewOptions): ViewHandler {
  const { manager, access, log } = options;
  let streams = 0;
  // From now on the cells of a watched session send their output while they run (view-events.ts): a server without a
  // view, or a session nobody watches, never asks.
  manager.viewEvents.enableLiveOutput();

  const send = (res: ServerResponse, status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-security-policy': FILE_CSP,
      ...headers,
    });
    res.end(body);
  };
  const text = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    send(res, status, 'text/plain; charset=utf-8', message + '\n', headers);
  const json = (res: ServerResponse, value: unknown) => send(res, 200, 'application/json', JSON.stringify(value));

  /** The session's log when this tenant may see it; else null (the same 404 as for an id that never existed). */
  const visible = (tenant: string, id: string): SessionEventLog | null => {
    const log = manager.viewEvents.get(id);
    return log && (log.owner === null || log.owner === tenant) ? log : null;
  };

  const page = (res: ServerResponse, session: string | null) => {
    const attrs = session === null ? '' : ` data-session="${escapeAttr(session)}"`;
    const body =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${session === null ? 'Sessions' : 'Session ' + escapeAttr(session.slice(0, 12))} · pyodide-mcp</title>` +
      `<link rel="stylesheet" href="${VIEW_PATH}/assets/view.css"><script type="module" src="${VIEW_PATH}/assets/view.js"></script>` +
      `</head><body${attrs} data-control="${options.control ? '1' : '0'}"><noscript>This page needs JavaScript.</noscript></body></html>`;
    send(res, 200, 'text/html; charset=utf-8', body, { 'content-security-policy': PAGE_CSP });
  };

  const stream = (req: IncomingMessage, res: ServerResponse, log: SessionEventLog) => {
    if (streams >= MAX_STREAMS) return text(res, 503, `Too many open views (${MAX_STREAMS}); close one.`, { 'retry-after': '5' });
    streams++;
    const url = new URL(req.url ?? '/', 'http://view');
    const last = Number(req.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    // Each event's JSON is made once, when it is logged, and written as is to every viewer. Live output has no id: a
    // reconnecting browser resumes after the last logged event, and is sent the running cell's output kept so far.
    const write = (streamed: StreamedEvent) => {
      res.write('live' in streamed ? `data: ${streamed.json}\n\n` : `id: ${streamed.event.seq}\ndata: ${streamed.json}\n\n`);
      // Security: a viewer that does not read cannot make the server hold the session's output again and again.
      if (res.writableLength > MAX_STREAM_BACKLOG) res.destroy();
    };
    const meta = { kind: 'meta', now: Date.now(), dropped: log.dropped, ended: log.ended, created_at: log.createdAt, id: log.id };
    res.write(`retry: 1000\ndata: ${JSON.stringify(meta)}\n\n`);
    for (const logged of log.loggedSince(Number.isFinite(last) ? last : 0)) write(logged);
    for (const piece of log.liveSoFar()) write(piece);
    const stop = log.subscribe(write);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      streams--;
      stop();
      clearInterval(heartbeat);
    });
  };

  const sessions = (tenant: string) => {
    const live = new Map(manager.list().map((s) => [s.session_id, s]));
    return manager.viewEvents
      .all()
      .filter((log) => log.owner === null || log.owner === tenant)
      .map((log) => {
        const events = log.since();
        const cells = events.filter((e) => e.kind === 'cell_started');
        const summary = live.get(log.id);
        return {
          session_id: log.id,
          created_at: log.createdAt,
          ended: log.ended,
          busy: summary?.busy ?? false,
          memory_bytes: log.ended ? null : manager.memoryOf(log.id),
          cells: cells.length + 0,
          last_source: cells.at(-1)?.kind === 'cell_started' ? (cells.at(-1) as { source: string }).source.slice(0, 200) : null,
          last_at: events.at(-1)?.at ?? log.createdAt,
        };
      })
      .sort((a, b) => b.last_at - a.last_at);
  };

  const file = async (res: ServerResponse, id: string, url: URL) => {
    const path = url.searchParams.get('path') ?? '';
    const files = await manager.filesOf(id);
    files.sizeOf(path); // FILE_NOT_FOUND from the index before any read
    const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
    const name = path.split('/').pop() ?? 'file';
    const disposition = `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`;
    await manager.readWhole(id, path, async (data) => {
      if (url.searchParams.get('download') === '1')
        return send(res, 200, 'application/octet-stream', data, { 'content-disposition': disposition });
      if (url.searchParams.get('frame') === '1' && (extension === 'html' || extension === 'htm')) {
        return send(res, 200, 'text/html; charset=utf-8', data, { 'content-security-policy': SCRIPT_FRAME_CSP });
      }
      const image = IMAGE_TYPES[extension];
      if (image) return send(res, 200, image, data);
      send(res, 200, 'application/octet-stream', data, { 'content-disposition': disposition });
    });
  };

  /** A text/html display item of a finished cell (`item=<n>`), or its last value's HTML (`item=result`), as its own sandboxed document. */
  const html = (res: ServerResponse, log: SessionEventLog, url: URL) => {
    const seq = Number(url.searchParams.get('seq'));
    const item = url.searchParams.get('item');
    const event = log.since(seq - 1).find((e) => e.seq === seq);
    if (event?.kind !== 'cell_finished') return text(res, 404, 'No such output (it may have been dropped).');
    const display = item === 'result' ? undefined : event.outcome.display[Number(item)];
    const markup = item === 'result' ? event.outcome.result_html : display?.mime_type === 'text/html' ? display.text : undefined;
    if (typeof markup !== 'string') return text(res, 404, 'No such output (it may have been dropped).');
    send(res, 200, 'text/html; charset=utf-8', `<!doctype html><meta charset="utf-8">${markup}`, {
      'content-security-policy': HTML_FRAME_CSP,
    });
  };

  const api = async (req: IncomingMessage, res: ServerResponse, tenant: string, rest: string[], url: URL) => {
    if (rest[0] === 'sessions' && rest.length === 1) return json(res, { sessions: sessions(tenant), control: options.control });
    const [id = '', what = ''] = rest;
    const log = visible(tenant, id);
    if (!log || rest.length !== 2) return text(res, 404, 'Not found: no such session (it may have ended long ago) or view path.');
    if (req.method === 'POST') {
      if (what !== 'interrupt' || !options.control) return text(res, 405, 'The view is read-only (--view-control adds Interrupt only).');
      return json(res, { interrupted: manager.viewEvents.interrupt(id) });
    }
    switch (what) {
      case 'events':
        return stream(req, res, log);
      case 'html':
        return html(res, log, url);
      case 'file':
        return file(res, id, url);
      case 'status': {
        const summary = manager.list().find((s) => s.session_id === id);
        return json(res, { ended: log.ended, busy: summary?.busy ?? false, memory_bytes: log.ended ? null : manager.memoryOf(id) });
      }
      case 'files':
        return json(res, { files: (await manager.filesOf(id)).allFiles().map((f) => ({ path: f.path, size: f.size })) });
      case 'packages':
        return json(res, await manager.listPackages(id));
      case 'variables': {
        const listing = await manager.namespace(id, {
          type: 'list_variables',
          filter: null,
          max_items: MAX_LISTED,
          repr_chars: SHORT_CHARS,
        });
        return json(res, capListing(listing, options.config.maxReplyBytes));
      }
      case 'notebook.ipynb': {
        const bytes = await manager.exportTurn(id, (turn) => notebookBytes(turn, id, options.config));
        return send(res, 200, 'application/x-ipynb+json', bytes, {
          'content-disposition': `attachment; filename="session-${id.replace(/[^\w-]/g, '_').slice(-12)}.ipynb"`,
        });
      }
      default:
        return text(res, 404, 'Not found: unknown view path.');
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://view');
    // Security: the token (or the cookie it was exchanged for) first, then Host/Origin, as for /mcp.
    const given = url.searchParams.get('token');
    const tenant = given !== null ? access.tenantOfToken(given) : access.tenantOfRequest(req);
    if (tenant === null) {
      return text(
        res,
        401,
        'Unauthorized: open the view with the URL the server logged (…/view?token=…), or send "Authorization: Bearer <token>" with the server\'s token.',
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (!hostAllowed(options.allowedHosts, req.headers.host, req.headers.origin)) {
      return text(res, 403, 'Forbidden: this Host or Origin is not allowed (--allowed-hosts).');
    }
    if (given !== null) {
      // The token leaves the URL (history, screenshots, Referer) at once: a cookie holds a login instead.
      url.searchParams.delete('token');
      res.writeHead(303, { location: url.pathname + url.search, 'set-cookie': access.login(tenant), 'cache-control': 'no-store' });
      return res.end();
    }
    const rest = url.pathname.slice(VIEW_PATH.length).split('/').filter(Boolean);
    if (rest[0] === 'api') {
      // Security: the API answers the view's own pages only; a frame of session output (an opaque origin) is cross-site.
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none')
        return text(res, 403, 'Forbidden: the view API answers its own pages only.');
      return api(req, res, tenant, rest.slice(1), url);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'The view is read-only.');
    if (rest.length === 0) return page(res, null);
    if (rest[0] === 'assets' && rest.length === 2) {
      const asset = viewAsset(rest[1]!);
      if (!asset) return text(res, 404, 'Not found: no such asset.');
      return send(res, 200, asset.type, asset.body, { 'cache-control': 'no-cache' });
    }
    if (rest.length === 1 && visible(tenant, rest[0]!)) return page(res, rest[0]!);
    return text(res, 404, 'Not found: no such session (it may have ended long ago).');
  };

  return (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (path !== VIEW_PATH && !path.startsWith(VIEW_PATH + '/')) return false;
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof PyodideMcpError) {
        const status = ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'SESSION_DEAD', 'FILE_NOT_FOUND', 'NOT_A_FILE'].includes(error.code)
          ? 404
          : 409;
        return text(res, status, `${error.code}: ${error.message}`);
      }
      log(`view: ${(error as Error)?.stack ?? String(error)}`);
      text(res, 500, 'Internal error.');
    });
    return true;
  };
}

function escapeAttr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The stdio mode's view (--view [HOST:]PORT): a listener of its own that serves /view only. */
export async function serveView(
  listen: { host: string; port: number },
  handler: ViewHandler,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const http = createHttpServer((req, res) => {
    if (!handler(req, res)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Not found: this listener serves the view at ${VIEW_PATH} only.\n`);
    }
  });
  const origin = await listenOn(http, listen.host, listen.port);
  return {
    origin,
    close: async () => {
      http.close();
      http.closeAllConnections();
    },
  };
}
