/**
 * Streamable HTTP for 2026-07-28 clients (http-server.ts routes them here). That revision has no MCP session
 * (SEP-2567) and no initialize (SEP-2575): every request stands alone, and the SDK's createMcpHandler serves each
 * from a server built for it. What one caller's Python sessions are confined to is its tenant: the holder of a bearer
 * token (today the one --auth-token, or anyone who reaches a loopback server without one). A tenant's servers share
 * one SessionScope (--max-sessions-per-client bounds it; list_sessions, session:// resources and tools see only its
 * sessions), its registered tools and its tools/list cache. A session_id stays a capability inside a tenant: 192
 * random bits. 2025-era clients keep their own MCP session and scope (http-server.ts), apart from any tenant.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { SessionManager } from '../sessions/manager.js';
import { SessionScope } from '../sessions/scope.js';
import { ByteBudget } from './http-body.js';
import type { CreatedServer, TenantShared } from './server.js';

/** One tenant: the sessions, tools and budgets its 2026-era requests share. */
export interface Tenant {
  /** Dispatch key of its requests (http-server.ts's fair queue), apart from every MCP session id. */
  key: string;
  scope: SessionScope;
  shared: TenantShared;
  /** JSON-RPC requests awaiting their replies (bounded by --max-client-requests, like an MCP session's). */
  requests: number;
  /** Bytes of its request bodies held now (--max-client-body-bytes). */
  bodies: ByteBudget;
  /** Servers whose request is done, kept for the next requests (building one costs 5-20 ms), and their disposal. */
  idle: { server: McpServer; dispose: () => void }[];
}

/** Most idle servers kept per tenant: enough for the requests one client has in flight at once, typically. */
const IDLE_SERVERS = 8;

export interface ModernOptions {
  manager: SessionManager;
  maxSessionsPerClient: number;
  maxClientBodyBytes: number;
  /** Builds one request's server over the tenant's scope and shared state. */
  serverFor: (sessions: SessionScope, shared: TenantShared) => CreatedServer;
  /** The shared state of a new tenant; `onChange` tells its listen streams that its tool list changed. */
  sharedFor: (sessions: SessionScope, onChange: () => void) => TenantShared;
  log: (message: string) => void;
  /**
   * The tenant's name for a request that passed http-access.ts's bearer check. Named tokens (several tenants) plug
   * in here: map the request's token to its name. Absent: one tenant, as there is one --auth-token today.
   */
  tenantName?: (req: IncomingMessage) => string;
}

/** The revisions without initialize: a request saying one of these in MCP-Protocol-Version is read as 2026-era. */
export function isModernRevision(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header) && header >= '2026-07-28';
}

export class ModernServing {
  private readonly tenants = new Map<string, Tenant>();
  private closing = false;
  private readonly handler;
  private readonly node;

  constructor(private readonly options: ModernOptions) {
    // legacy 'reject': 2025 traffic never reaches this handler (http-server.ts serves it, sessionful); a request
    // that gets here without an envelope is answered with the supported revisions.
    this.handler = createMcpHandler((context) => this.serverOf(context.authInfo?.clientId), {
      legacy: 'reject',
      onerror: (error) => options.log(`http (2026-07-28): ${error.message}`),
    });
    this.node = toNodeHandler(this.handler, { onerror: (error) => options.log(`http (2026-07-28): ${error.message}`) });
  }

  /** The tenant of a request that passed the bearer check (see ModernOptions.tenantName). */
  tenantOf(req: IncomingMessage): Tenant {
    return this.tenant(this.options.tenantName?.(req) ?? 'token');
  }

  private tenant(name: string): Tenant {
    let tenant = this.tenants.get(name);
    if (!tenant) {
      const scope = new SessionScope(this.options.manager, { maxSessions: this.options.maxSessionsPerClient });
      tenant = {
        key: `tenant:${name}`,
        scope,
        shared: this.options.sharedFor(scope, () => this.handler.notify.toolsChanged()),
        requests: 0,
        bodies: new ByteBudget(this.options.maxClientBodyBytes, '--max-client-body-bytes'),
        idle: [],
      };
      this.tenants.set(name, tenant);
    }
    return tenant;
  }

  private serverOf(name: string | undefined): McpServer {
    const tenant = this.tenants.get(name ?? '');
    // authInfo is set by serve() from tenantOf(); a request without it never reaches the factory.
    if (!tenant) throw new Error('no tenant for this request');
    const reused = tenant.idle.pop();
    if (reused) return reused.server;
    const { server } = this.options.serverFor(tenant.scope, tenant.shared);
    // The SDK closes a request's server once its exchange is done, calling the onclose it found (after its own): the
    // server goes back to the tenant's idle list, with this handler again (the SDK wraps it anew at each request).
    // A server the SDK built but never connected (a subscriptions/listen, a request refused for its headers) is
    // closed without an onclose: close() releases it too. Disposing detaches it from the tenant's registered tools.
    const dispose = server.server.onclose ?? (() => {});
    const release = () => {
      server.server.onclose = release;
      if (tenant.idle.length < IDLE_SERVERS && !this.closing) tenant.idle.push({ server, dispose });
      else dispose();
    };
    server.server.onclose = release;
    const close = server.close.bind(server);
    server.close = async () => {
      if (server.isConnected()) await close();
      else release();
    };
    return server;
  }

  /** Serves one 2026-era request whose body was read (and checked) by http-server.ts. */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, tenant: Tenant): Promise<void> {
    // The SDK hands authInfo to the factory as given: the tenant's name, never the token itself.
    const name = tenant.key.slice('tenant:'.length);
    (req as IncomingMessage & { auth?: unknown }).auth = { token: name, clientId: name, scopes: [] };
    return this.node(req, res, body);
  }

  /** Ends the listen streams and in-flight exchanges, then every tenant's sessions. */
  async close(): Promise<void> {
    this.closing = true;
    await this.handler.close();
    for (const tenant of this.tenants.values()) for (const { dispose } of tenant.idle.splice(0)) dispose();
    await Promise.all([...this.tenants.values()].map((tenant) => tenant.scope.closeAll()));
  }
}
