/**
 * Streamable HTTP for 2026-07-28 clients (http-server.ts routes them here). That revision has no MCP session
 * (SEP-2567) and no initialize (SEP-2575): every request stands alone, and the SDK's createMcpHandler serves each
 * from a server built for it. What one caller's Python sessions are confined to is its tenant: the holder of a bearer
 * token (http-tenants.ts: --auth-token, --auth-token-file; anyone who reaches a loopback server without a token is
 * the one default tenant). A tenant's 2026 requests share one SessionScope nested in the tenant's (bounded like one
 * client by --max-sessions-per-client, and with the tenant's other clients by --max-sessions-per-tenant;
 * list_sessions, session:// resources and tools see only its sessions), its registered tools and its tools/list
 * cache. A session_id stays a capability inside it. The tenant's 2025-era clients keep their own MCP sessions and
 * scopes (http-server.ts), apart from its 2026 requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
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
  /** The scope of a tenant (http-server.ts's, over the manager), which its 2026 requests' scope nests in. */
  scopeOf: (tenant: string) => SessionScope;
  maxSessionsPerClient: number;
  maxClientBodyBytes: number;
  /** Builds one request's server over the tenant's scope and shared state. */
  serverFor: (sessions: SessionScope, shared: TenantShared) => CreatedServer;
  /** The shared state of a new tenant; `onChange` tells its listen streams that its tool list changed. */
  sharedFor: (sessions: SessionScope, onChange: () => void) => TenantShared;
  log: (message: string) => void;
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

  /** The 2026-era state of a tenant (its name from http-tenants.ts's resolver), made at its first such request. */
  tenantNamed(name: string): Tenant {
    let tenant = this.tenants.get(name);
    if (!tenant) {
      const scope = new SessionScope(this.options.scopeOf(name), { maxSessions: this.options.maxSessionsPerClient });
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
    // authInfo is set by serve() from the tenant the request was resolved to (tenantNamed()); a request without it never reaches the factory.
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
