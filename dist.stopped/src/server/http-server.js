/**
 * The CLI's Streamable HTTP mode: MCP at /mcp, one SDK StreamableHTTPServerTransport and one McpServer per client
 * (MCP session), each over its own SessionScope of the one SessionManager, so a client reaches only the Python
 * sessions it created. Order of checks on every request (Security): the bearer token, then Host/Origin, then the
 * path; only then does the SDK read the body (bounded by maxBodyBytes).
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SessionScope } from '../sessions/scope.js';
import { allowedHostNames, bearerCheck, hostAllowed } from './http-access.js';
const MCP_PATH = '/mcp';
export async function serveHttp(options) {
    const { log, manager } = options;
    const authorized = bearerCheck(options.authToken);
    const allowed = allowedHostNames(options.host, options.allowedHosts);
    const clients = new Map();
    /** Transports created for an initialize request that has not completed yet: they count toward maxClients. */
    let starting = 0;
    let stopping = false;
    /** POST requests not yet answered (tool calls), and who waits for them to reach zero (shutdown). */
    let calls = 0;
    const drained = [];
    const refuse = (res, status, message, headers = {}) => {
        if (res.headersSent)
            return void res.end();
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
    };
    /** Counts a request as open on a client until its response ends (a GET stream stays open while connected). */
    const track = (client, req, res) => {
        const call = req.method === 'POST';
        client.open++;
        if (call)
            calls++;
        client.lastSeen = Date.now();
        res.once('close', () => {
            client.open--;
            client.lastSeen = Date.now();
            if (call && --calls === 0)
                drained.splice(0).forEach((resolve) => resolve());
        });
    };
    const handle = async (req, res) => {
        // Security: nothing of the request is read or parsed before the token is checked.
        if (!authorized(req.headers.authorization)) {
            return refuse(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" (the token the server was started with).', {
                'www-authenticate': 'Bearer',
            });
        }
        if (!hostAllowed(allowed, req.headers.host, req.headers.origin)) {
            return refuse(res, 403, 'Forbidden: this Host or Origin is not allowed (--allowed-hosts).');
        }
        if ((req.url ?? '').split('?')[0] !== MCP_PATH)
            return refuse(res, 404, `Not found: MCP is served at ${MCP_PATH}.`);
        if (stopping)
            return refuse(res, 503, 'The server is shutting down.');
        const sessionId = req.headers['mcp-session-id'];
        if (typeof sessionId === 'string') {
            const client = clients.get(sessionId);
            // The same answer for a closed, expired or made-up id: the client starts a new MCP session.
            if (!client)
                return refuse(res, 404, 'Session not found: initialize a new MCP session.');
            track(client, req, res);
            return client.transport.handleRequest(req, res);
        }
        if (req.method !== 'POST')
            return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required.');
        if (clients.size + starting >= options.maxClients) {
            return refuse(res, 503, `Too many clients: ${options.maxClients} MCP sessions are open (--max-clients). Close one (DELETE) or retry later.`);
        }
        starting++;
        let client;
        try {
            const transport = new StreamableHTTPServerTransport({
                // Security: 192 bits from the CSPRNG. The id routes requests; the token (when set) is what authorizes them.
                sessionIdGenerator: () => randomBytes(24).toString('base64url'),
                maxRequestBodySize: options.maxBodyBytes,
                onsessioninitialized: (id) => {
                    clients.set(id, client);
                    log(`MCP session ${id} opened (${clients.size} open)`);
                },
            });
            const created = options.serverFor(new SessionScope(manager));
            client = { transport, created, lastSeen: Date.now(), open: 0 };
            // Chained by the SDK's connect(): closing the transport (DELETE, expiry, shutdown) closes the client's sessions.
            transport.onclose = () => {
                const id = transport.sessionId;
                if (id && clients.delete(id))
                    log(`MCP session ${id} closed`);
            };
            await created.server.connect(transport);
            track(client, req, res);
            await transport.handleRequest(req, res);
        }
        finally {
            starting--;
        }
        // Not an initialize request (the SDK answered 400): nothing to keep.
        if (client && !client.transport.sessionId)
            await client.created.close();
    };
    const http = createHttpServer((req, res) => {
        handle(req, res).catch((error) => {
            log(`http: ${error?.stack ?? String(error)}`);
            refuse(res, 500, 'Internal error.');
        });
    });
    const sweep = setInterval(() => {
        const now = Date.now();
        for (const [id, client] of clients) {
            if (client.open === 0 && now - client.lastSeen >= options.idleMs) {
                log(`MCP session ${id} expired`);
                void client.created.close();
            }
        }
    }, Math.min(Math.max(options.idleMs / 4, 250), 60_000));
    sweep.unref();
    await new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen(options.port, options.host, () => {
            http.off('error', reject);
            resolve();
        });
    });
    const { port } = http.address();
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}${MCP_PATH}`;
    return {
        url,
        close: async (graceMs = 5000) => {
            stopping = true;
            clearInterval(sweep);
            http.close();
            // Running calls fail now (SERVER_CLOSING) and their replies go out on their streams; wait for those to end.
            await manager.closeAll();
            if (calls > 0) {
                const grace = setTimeout(() => drained.splice(0).forEach((resolve) => resolve()), graceMs);
                await new Promise((resolve) => drained.push(resolve));
                clearTimeout(grace);
            }
            await Promise.all([...clients.values()].map((client) => client.created.close().catch(() => { })));
            http.closeAllConnections();
        },
    };
}
