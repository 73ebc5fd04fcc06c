/**
 * The CLI's Streamable HTTP mode: MCP at /mcp, for both protocol eras. A 2025-era client (initialize, then
 * Mcp-Session-Id) gets one SDK StreamableHTTPServerTransport and one McpServer per MCP session. Scopes nest: each
 * tenant (its bearer token, src/server/http-tenants.ts) has a SessionScope of the one SessionManager, and each of its
 * clients a SessionScope of the tenant's, so a client reaches only the Python sessions it created and a tenant never
 * another's; an MCP session id is valid only with the token that opened it. A 2026-07-28 request (no MCP session; a
 * `_meta` envelope and MCP-Protocol-Version) goes to http-modern.ts: the tenant's 2026 requests share one scope of
 * the tenant's. Order of checks on every request (Security): the bearer token (the tenant), then Host/Origin, then the
 * path; then the body is read under the byte budgets (src/server/http-body.ts) and the client's bound on requests
 * in flight is checked; then the request waits in its client's queue (src/server/fair-dispatch.ts: round-robin
 * over clients, one per event-loop turn) and only then does the SDK get the parsed body.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { SessionManager } from '../sessions/manager.js';
import { SessionScope } from '../sessions/scope.js';
import { newSessionId } from '../sessions/session-id.js';
import { allowedHostNames, hostAllowed } from './http-access.js';
import { listenOn } from './http-listen.js';
import { DEFAULT_TENANT, tenantResolver, type TenantTokens } from './http-tenants.js';
import { DROPPED, FairDispatcher } from './fair-dispatch.js';
import { ByteBudget, readJsonBody } from './http-body.js';
import { refuse, refuseUnreadBody } from './http-refusal.js';
import { cancelledIds, isListenRequest, requestCount } from './jsonrpc-messages.js';
import { isModernRevision, ModernServing } from './http-modern.js';
import type { CreatedServer, TenantShared } from './server.js';
import type { ViewHandler } from '../view/view-server.js';

export interface HttpServeOptions {
  host: string;
  port: number;
  /** Tenant name to bearer token (--auth-token, --auth-token-file); null: no token asked, one tenant. */
  tokens: TenantTokens | null;
  /** null: the default for the address (see allowedHostNames). */
  allowedHosts: string[] | null;
  /** Most MCP sessions open at once. */
  maxClients: number;
  /** Largest POST body, in bytes (the same bound as a stdio line). */
  maxBodyBytes: number;
  /** Most bytes of request bodies held at once over all clients (--max-inflight-body-bytes). */
  maxInflightBodyBytes: number;
  /** Most bytes of request bodies held at once by one client (--max-client-body-bytes). */
  maxClientBodyBytes: number;
  /** Most JSON-RPC requests of one client awaiting their replies, queued ones included (--max-client-requests). */
  maxClientRequests: number;
  /** Milliseconds a request body has to arrive in (--http-body-timeout). */
  bodyTimeoutMs: number;
  /** An MCP session with no request (and no open stream) for this long is closed, with its Python sessions. */
  idleMs: number;
  manager: SessionManager;
  /** Most Python sessions one client may hold at once (--max-sessions-per-client). */
  maxSessionsPerClient: number;
  /** Most Python sessions one tenant may hold at once (--max-sessions-per-tenant); null: only --max-sessions. */
  maxSessionsPerTenant: number | null;
  /** Builds the MCP server of one client over its scope (a 2026-era request's: over its tenant's, with its shared state). */
  serverFor: (sessions: SessionScope, shared?: TenantShared) => CreatedServer;
  /** The shared state of a 2026-era tenant (its registered tools, its tools/list cache). */
  sharedFor: (sessions: SessionScope, onChange: () => void) => TenantShared;
  /** `POST /drain` was accepted: the command drains the server (as on SIGTERM) and exits. */
  onDrain?: () => void;
  log: (message: string) => void;
  /** The browser view (src/view/): answers /view* itself, with the same token and Host/Origin checks. */
  view?: ViewHandler;
}

/** One client: its transport, its server, and whether it is in use. */
interface Client {
  /** The tenant whose token opened it: a request with another tenant's token does not reach it. */
  tenant: string;
  transport: StreamableHTTPServerTransport;
  created: CreatedServer;
  lastSeen: number;
  /** Open requests, streams included: a connected client is never expired. */
  open: number;
  /** JSON-RPC requests awaiting their replies (notifications and responses are not counted). */
  requests: number;
  /** Bytes of this client's request bodies held now. */
  bodies: ByteBudget;
  /** Ids of requests in flight that came alone in their POST (their response stream carries nothing else). */
  alone: Set<string | number>;
}

export interface HttpServing {
  /** http://HOST:PORT/mcp */
  url: string;
  /**
   * Graceful stop: no new connections; running calls end with an error reply (their sessions are terminated) and
   * are given `graceMs` to reach their clients; then every transport and connection is closed.
   */
  close: (graceMs?: number) => Promise<void>;
  /**
   * Drain (SIGTERM, POST /drain): /healthz says "draining", no new MCP session, Python session or restore is taken;
   * running calls get up to `graceMs` to finish (their state is saved as they end, with --state-dir); then close().
   * Resolves to the calls that were still running when the grace ran out.
   */
  drain: (graceMs: number) => Promise<number>;
}

const MCP_PATH = '/mcp';
/** Health of this instance for a proxy or an orchestrator's probes: no token needed, nothing secret in it. */
const HEALTH_PATH = '/healthz';
/** `POST` here with the operator's token (--auth-token) starts a drain. */
const DRAIN_PATH = '/drain';
/**
 * Largest body of a request without an MCP session (an initialize request: a few hundred bytes in practice), so
 * that clients not yet admitted cannot take much of the server's budget.
 */
const INITIALIZE_MAX_BYTES = 2 ** 20;
/**
 * The dispatch class of requests without an MCP session (initialize): one queue for all of them, not bounded by the
 * dispatcher since --max-clients already bounds the initialize requests in progress (`starting`).
 */
const NEW_CLIENTS = Symbol('new clients');

export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const { log, manager } = options;
  const tenantOf = tenantResolver(options.tokens);
  /**
   * Each tenant's scope over the manager, made at its first request: at most one per configured token. Its 2025-era
   * clients get scopes of it (one per MCP session), its 2026-07-28 requests one scope of it (http-modern.ts).
   */
  const tenants = new Map<string, SessionScope>();
  const scopeOf = (tenant: string) => {
    let scope = tenants.get(tenant);
    if (!scope) {
      const maxSessions = options.maxSessionsPerTenant ?? undefined;
      tenants.set(tenant, (scope = new SessionScope(manager, { owner: tenant, maxSessions, share: 'tenant' })));
    }
    return scope;
  };
  const allowed = allowedHostNames(options.host, options.allowedHosts);
  const clients = new Map<string, Client>();
  /** Transports created for an initialize request that has not completed yet: they count toward maxClients. */
  let starting = 0;
  let stopping = false;
  let draining = false;
  /** POST requests not yet answered (tool calls; not listen streams), and who waits for them to reach zero (shutdown). */
  let calls = 0;
  const drained: (() => void)[] = [];
  const bodies = new ByteBudget(options.maxInflightBodyBytes, '--max-inflight-body-bytes');
  /**
   * Keyed by MCP session id. A client's JSON-RPC requests are bounded by --max-client-requests (queued ones count);
   * the queue bound also covers its notifications, responses, GETs and DELETEs, each of which holds a connection.
   */
  const dispatcher = new FairDispatcher<string | typeof NEW_CLIENTS>(2 * options.maxClientRequests);
  const modern = new ModernServing({
    scopeOf: (tenant) => scopeOf(tenant),
    maxSessionsPerClient: options.maxSessionsPerClient,
    maxClientBodyBytes: options.maxClientBodyBytes,
    serverFor: (sessions, shared) => options.serverFor(sessions, shared),
    sharedFor: options.sharedFor,
    log,
  });
  const tooMany = (res: ServerResponse, what: string) => {
    const message = `Too Many Requests: ${what} (--max-client-requests ${options.maxClientRequests}). Wait for some replies before sending more.`;
    refuse(res, 429, message, { 'retry-after': '1' });
  };
  /**
   * Hands the request to the SDK in the client's turn. A request whose connection closes while it waits is dropped
   * (its body's bytes and its place were released by the 'close' listeners of readJsonBody and the caller).
   * Resolves to false if dropped or refused.
   */
  const dispatch = async (
    key: string | typeof NEW_CLIENTS,
    transport: StreamableHTTPServerTransport | ((req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>),
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<boolean> => {
    const serve = typeof transport === 'function' ? transport : transport.handleRequest.bind(transport);
    let job;
    try {
      job = dispatcher.schedule(key, () => serve(req, res, body), key === NEW_CLIENTS ? Infinity : undefined);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      tooMany(res, `this client already has ${dispatcher.queued(key)} messages waiting to be handled`);
      return false;
    }
    const drop = () => job.drop();
    res.once('close', drop);
    const outcome = await job.result;
    res.off('close', drop);
    return outcome !== DROPPED;
  };

  /** Counts a request as open on a client until its response ends (a GET stream stays open while connected). */
  const track = (client: Client, req: IncomingMessage, res: ServerResponse) => {
    const call = req.method === 'POST';
    client.open++;
    if (call) calls++;
    client.lastSeen = Date.now();
    res.once('close', () => {
      client.open--;
      client.lastSeen = Date.now();
      if (call && --calls === 0) drained.splice(0).forEach((resolve) => resolve());
    });
  };

  /** A request body under the full bounds: the largest message, the server's budget and the caller's own. */
  const readBody = (req: IncomingMessage, res: ServerResponse, callerBudget: ByteBudget) =>
    readJsonBody(req, res, { maxBytes: options.maxBodyBytes, server: bodies, client: callerBudget, deadlineMs: options.bodyTimeoutMs });

  /**
   * A POST saying a 2026 revision in MCP-Protocol-Version: its body is read under the full bounds (a write_file can be
   * large) and its tenant's budgets, then the SDK's classification decides: a 2025-era body (no envelope) is refused
   * as the SDK's modern endpoint would, an enveloped one is served by the tenant's per-request server.
   */
  const serveModern = async (req: IncomingMessage, res: ServerResponse, tenantName: string) => {
    const tenant = modern.tenantNamed(tenantName);
    const read = await readBody(req, res, tenant.bodies);
    if (!read.ok) return refuseUnreadBody(req, res, read.refusal, options.bodyTimeoutMs);
    const requests = requestCount(read.body);
    if (requests > 0 && tenant.requests + requests > options.maxClientRequests) {
      return tooMany(res, `this token already has ${tenant.requests} requests awaiting replies`);
    }
    tenant.requests += requests;
    // A listen stream is open until the client leaves: counted as a call, it held every drain for its whole grace.
    // It is ended when the server closes (the SDK's handler sends its final result then).
    const call = !isListenRequest(read.body);
    if (call) calls++;
    res.once('close', () => {
      tenant.requests -= requests;
      if (call && --calls === 0) drained.splice(0).forEach((resolve) => resolve());
    });
    // A body without the `_meta` envelope is refused by createMcpHandler (400, -32602, naming what is missing).
    await dispatch(tenant.key, (rq, rs, body) => modern.serve(rq, rs, body, tenant), req, res, read.body);
  };

  /**
   * /healthz: 200 when the instance takes sessions, 503 while its pool starts or while it drains. Security: asked
   * before the token and Host checks (a probe has neither), so it says only what a proxy needs: no session ids, no
   * tenants, counts only.
   */
  const health = (req: IncomingMessage, res: ServerResponse) => {
    const status = draining || stopping ? 'draining' : manager.ready ? 'ready' : 'starting';
    const body = JSON.stringify({ status, instance: manager.instanceId, sessions: manager.size, calls });
    res.writeHead(status === 'ready' ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) return health(req, res);
    // Security: nothing of the request is read or parsed before the token is checked.
    const tenant = tenantOf(req);
    if (tenant === null) {
      return refuse(
        res,
        401,
        'Unauthorized: send "Authorization: Bearer <token>" with a token this server was given (--auth-token or a line of --auth-token-file).',
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    if (!hostAllowed(allowed, req.headers.host, req.headers.origin)) {
      return refuse(res, 403, 'Forbidden: this Host or Origin is not allowed (--allowed-hosts).');
    }
    if (path === DRAIN_PATH) return drainRequest(req, res, tenant);
    if (path !== MCP_PATH) return refuse(res, 404, `Not found: MCP is served at ${MCP_PATH}.`);
    if (stopping) return refuse(res, 503, 'The server is shutting down.');
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const found = clients.get(sessionId);
      // The same answer for a closed, expired or made-up id, and for another tenant's: the client starts a new one.
      const client = found?.tenant === tenant ? found : undefined;
      if (!client) return refuse(res, 404, 'Session not found: initialize a new MCP session.');
      track(client, req, res);
      if (req.method !== 'POST') return void (await dispatch(sessionId, client.transport, req, res));
      const read = await readBody(req, res, client.bodies);
      if (!read.ok) return refuseUnreadBody(req, res, read.refusal, options.bodyTimeoutMs);
      const requests = requestCount(read.body);
      // Notifications (a cancellation among them) and responses always pass: they hold nothing and answer at once.
      // Queued requests count too: a client that sends faster than it is served fills its place and gets 429.
      if (requests > 0 && client.requests + requests > options.maxClientRequests) {
        return tooMany(res, `this client already has ${client.requests} requests awaiting replies`);
      }
      const owner = client;
      owner.requests += requests;
      const alone = requests === 1 && !Array.isArray(read.body) ? (read.body as { id: string | number }).id : undefined;
      if (alone !== undefined) owner.alone.add(alone);
      res.once('close', () => {
        owner.requests -= requests;
        if (alone !== undefined) owner.alone.delete(alone);
      });
      if (!(await dispatch(sessionId, client.transport, req, res, read.body))) return;
      // The SDK replies nothing to a cancelled request, so its response stream would stay open until the client
      // disconnects, holding a place in --max-client-requests and its body's bytes: it is closed here instead.
      for (const id of cancelledIds(read.body)) if (owner.alone.has(id)) owner.transport.closeSSEStream(id);
      return;
    }
    if (req.method !== 'POST') return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required.');
    if (isModernRevision(req.headers['mcp-protocol-version'])) return serveModern(req, res, tenant);
    if (draining)
      return refuse(res, 503, 'This server is draining: it opens no new MCP session. Retry (a proxy sends it to another server).');
    if (clients.size + starting >= options.maxClients) {
      return refuse(
        res,
        503,
        `Too many clients: ${options.maxClients} MCP sessions are open (--max-clients). Close one (DELETE) or retry later.`,
      );
    }
    starting++;
    let client: Client | undefined;
    try {
      // Security: before a client exists only its initialize request is read, under a small bound of its own.
      const read = await readJsonBody(req, res, {
        maxBytes: Math.min(options.maxBodyBytes, INITIALIZE_MAX_BYTES),
        server: bodies,
        client: null,
        deadlineMs: options.bodyTimeoutMs,
      });
      if (!read.ok) return refuseUnreadBody(req, res, read.refusal, options.bodyTimeoutMs);
      const transport = new StreamableHTTPServerTransport({
        // Security: 192 bits from the CSPRNG. The id routes requests; the token (when set) is what authorizes them.
        // With --instance-id it carries the same prefix as session ids, so a proxy routes the MCP session too.
        sessionIdGenerator: () => newSessionId(manager.instanceId),
        maxRequestBodySize: options.maxBodyBytes,
        onsessioninitialized: (id) => {
          clients.set(id, client!);
          log(`MCP session ${id} opened (${clients.size} open)`);
        },
      });
      const created = options.serverFor(new SessionScope(scopeOf(tenant), { maxSessions: options.maxSessionsPerClient }));
      client = {
        tenant,
        transport,
        created,
        lastSeen: Date.now(),
        open: 0,
        requests: 0,
        alone: new Set(),
        bodies: new ByteBudget(options.maxClientBodyBytes, '--max-client-body-bytes'),
      };
      // Chained by the SDK's connect(): closing the transport (DELETE, expiry, shutdown) closes the client's sessions.
      transport.onclose = () => {
        const id = transport.sessionId;
        if (id && clients.delete(id)) log(`MCP session ${id} closed`);
      };
      await created.server.connect(transport);
      track(client, req, res);
      await dispatch(NEW_CLIENTS, transport, req, res, read.body);
    } finally {
      starting--;
    }
    // Not an initialize request (the SDK answered 400): nothing to keep.
    if (client && !client.transport.sessionId) await client.created.close();
  };

  /**
   * POST /drain. Security: only the operator's token (--auth-token, the tenant "default") may drain, not a tenant of
   * --auth-token-file (one tenant must not stop a server others use); without tokens (loopback) anyone may.
   */
  const drainRequest = (req: IncomingMessage, res: ServerResponse, tenant: string) => {
    if (req.method !== 'POST') return refuse(res, 405, `Method Not Allowed: POST ${DRAIN_PATH} starts a drain.`, { allow: 'POST' });
    if (options.tokens !== null && tenant !== DEFAULT_TENANT) {
      return refuse(res, 403, `Forbidden: only the token of --auth-token may drain the server (SIGTERM drains it too).`);
    }
    res.writeHead(202, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'draining' }));
    req.resume();
    if (!draining && !stopping) options.onDrain?.();
  };

  const http = createHttpServer((req, res) => {
    if (options.view?.(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      log(`http: ${(error as Error)?.stack ?? String(error)}`);
      refuse(res, 500, 'Internal error.');
    });
  });

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, client] of clients) {
        if (client.open === 0 && now - client.lastSeen >= options.idleMs) {
          log(`MCP session ${id} expired`);
          void client.created.close();
        }
      }
    },
    Math.min(Math.max(options.idleMs / 4, 250), 60_000),
  );
  sweep.unref();

  const url = `${await listenOn(http, options.host, options.port)}${MCP_PATH}`;

  /** Resolves when no POST is unanswered, or after `ms` (to the count still running then). */
  const callsDone = async (ms: number): Promise<number> => {
    if (calls === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      drained.push(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    return calls;
  };

  const serving: HttpServing = {
    url,
    drain: async (graceMs) => {
      draining = true;
      manager.drain();
      log(`draining: ${calls} calls running, ${manager.size} sessions; up to ${graceMs / 1000} s for the calls to end`);
      const left = await callsDone(graceMs);
      if (left > 0) log(`drain grace over: ${left} calls still running end with SERVER_CLOSING`);
      await serving.close();
      return left;
    },
    close: async (graceMs = 5000) => {
      stopping = true;
      clearInterval(sweep);
      http.close();
      // Running calls fail now (SERVER_CLOSING) and their replies go out on their streams; wait for those to end.
      await manager.closeAll();
      if (calls > 0) {
        const grace = setTimeout(() => drained.splice(0).forEach((resolve) => resolve()), graceMs);
        await new Promise<void>((resolve) => drained.push(resolve));
        clearTimeout(grace);
      }
      await Promise.all([...clients.values()].map((client) => client.created.close().catch(() => {})));
      await modern.close().catch(() => {});
      http.closeAllConnections();
    },
  };
  return serving;
}
