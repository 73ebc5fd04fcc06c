#!/usr/bin/env node
/**
 * The `pyodide-mcp` command: parses flags, picks the distribution, serves MCP over stdio (or Streamable HTTP with
 * --http); `pyodide-mcp fetch-wheels` fills the wheel cache instead (src/python/wheels-cli.ts).
 * The only module that reads process.argv / process.env. stdout carries protocol messages only.
 */
import { httpLimits, parseConfig, type Config } from './server/config.js';
import { helpText } from './server/flags.js';
import { chooseDistribution, distributionLog, type Distribution } from './python/distribution.js';
import { fetchWheelsCommand } from './python/wheels-cli.js';
import { packageVersion } from './paths.js';
import { exposureProblem } from './server/http-access.js';
import { serveHttp } from './server/http-server.js';
import { readTokenFile, tenantTokens } from './server/http-tenants.js';
import { createServer, tenantShared } from './server/server.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BoundedStdioServerTransport, describeStdioError, maxMessageBytes } from './server/stdio-transport.js';
import { SessionManager } from './sessions/manager.js';
import { UsageError } from './errors.js';
import { isLoopback } from './server/http-access.js';
import { createView } from './view/view-start.js';
import { serveView } from './view/view-server.js';

const log = (message: string) => process.stderr.write(`[pyodide-mcp] ${message}\n`);
const version = packageVersion();

async function main(): Promise<number | undefined> {
  // `pyodide-mcp fetch-wheels`: not an MCP session, so its lines may use stderr freely and it exits when done.
  if (process.argv[2] === 'fetch-wheels') return fetchWheelsCommand(process.argv.slice(3), process.env);
  let action;
  try {
    action = parseConfig(process.argv.slice(2), process.env);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  if (action.action === 'help') {
    // --help and --version are not MCP sessions, so stdout is free for them.
    process.stdout.write(helpText(version));
    return 0;
  }
  if (action.action === 'version') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const { config } = action;
  let distribution;
  try {
    distribution = chooseDistribution(config.runtime, config.preload, config.wheelDirs, config.lockFile);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  for (const line of distributionLog(distribution, config.preload)) log(line);
  // Security: a message longer than the largest legitimate input is refused (stdio: skipped and answered with an
  // error, rather than closing the transport, which would end every session; HTTP: 413).
  const maxLineBytes = maxMessageBytes({ maxCodeChars: config.maxCodeChars, maxFileBytes: config.fileLimits.maxFileBytes });
  if (config.http.listen) return serveOverHttp(config, config.http.listen, distribution, maxLineBytes);
  if (config.view.listen && !isLoopback(config.view.listen.host)) {
    log(`--view serves on loopback only (it has no TLS): use 127.0.0.1, or --http behind a proxy (docs/view.md).`);
    return 2;
  }

  let manager: SessionManager;
  try {
    manager = new SessionManager(config, distribution, log);
  } catch (error) {
    // A flag only the session manager can check (an untrusted --state-dir): a usage error like any other bad flag.
    if (!(error instanceof UsageError)) throw error;
    log(error.message);
    return 2;
  }
  const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, { maxLineBytes, log });
  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down (${why})`);
    await manager.closeAll().catch((error) => log(`error while closing: ${(error as Error).message}`));
    await handle.close().catch((error) => log(`error while closing: ${(error as Error).message}`));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.stdin.on('end', () => void shutdown('stdin closed'));
  // serveStdio owns the transport and the era of the connection: a 2025 client opens with initialize, a 2026-07-28
  // client with server/discover or an enveloped request; one server from the factory is pinned for the connection
  // (a second one only when a client probes with server/discover and then falls back to initialize). The servers
  // share the one session manager, which ends with the process, not with a discarded probe server.
  const handle = serveStdio(
    ({ era }) => createServer({ config, version, log, era, sessions: manager, closeSessionsOnDisconnect: false }).server,
    {
      transport,
      // A line that is not JSON-RPC is reported here, and the SDK reads on.
      onerror: (error) => log(`stdio: ${describeStdioError(error)}`),
    },
  );
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    void shutdown('transport closed');
  };
  log(`ready on stdio (messages up to ${maxLineBytes} bytes)`);
  if (config.view.listen) {
    // The browser view (docs/view.md) on a loopback listener of its own; its URL, with a fresh token, to stderr.
    const view = createView({ manager, config, tokens: null, host: config.view.listen.host, allowedHosts: null, log });
    try {
      log(view.urlLine((await serveView(config.view.listen, view.handler)).origin));
    } catch (error) {
      log(`cannot serve the view on ${config.view.listen.host}:${config.view.listen.port}: ${(error as Error).message}`);
    }
  }
  return undefined;
}

/** --http: Streamable HTTP at /mcp until SIGINT/SIGTERM. */
async function serveOverHttp(
  config: Config,
  listen: { host: string; port: number },
  distribution: Distribution,
  maxBodyBytes: number,
): Promise<number | undefined> {
  const { authToken, authTokenFile, allowedHosts, maxClients, maxClientRequests, bodyTimeoutMs } = config.http;
  let tokens;
  try {
    tokens = tenantTokens(authToken, authTokenFile === null ? null : readTokenFile(authTokenFile, log));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log(error.message);
    return 2;
  }
  const problem = exposureProblem(listen.host, tokens !== null);
  if (problem) {
    log(problem);
    return 2;
  }
  if (tokens !== null) log(`tenants: ${[...tokens.keys()].join(', ')}`);
  let manager;
  try {
    manager = new SessionManager(config, distribution, log);
  } catch (error) {
    // An untrusted --state-dir: a usage error like any other bad flag.
    if (!(error instanceof UsageError)) throw error;
    log(error.message);
    return 2;
  }
  if (config.view.listen) {
    log('--view is for stdio mode: with --http the view is served at /view of the same server.');
    await manager.closeAll();
    return 2;
  }
  const view = createView({ manager, config, tokens, host: listen.host, allowedHosts, log });
  let serving;
  try {
    serving = await serveHttp({
      view: view.handler,
      ...listen,
      tokens,
      allowedHosts,
      maxClients,
      maxBodyBytes,
      ...httpLimits(config, maxBodyBytes),
      maxClientRequests,
      maxSessionsPerTenant: config.http.maxSessionsPerTenant,
      bodyTimeoutMs,
      idleMs: config.sessionTtlMs,
      manager,
      // A 2026-era request's server is built for that request; its tenant's sessions outlive it.
      serverFor: (sessions, shared) =>
        createServer({ config, version, log, sessions, shared, era: shared ? 'modern' : 'legacy', closeSessionsOnDisconnect: !shared }),
      sharedFor: (sessions, onChange) => tenantShared({ sessions, config, log }, onChange),
      onDrain: () => void shutdown('POST /drain', true),
      log,
    });
  } catch (error) {
    log(`cannot listen on ${listen.host}:${listen.port}: ${(error as Error).message}`);
    await manager.closeAll();
    return 1;
  }
  let stopping = false;
  // SIGTERM (what an orchestrator sends) and POST /drain drain: running calls get --drain-grace to end. SIGINT (a
  // terminal's ^C) stops at once, running calls ending with SERVER_CLOSING. Saved state (--state-dir) is kept either way.
  const shutdown = async (why: string, drain: boolean) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down (${why})`);
    const done = drain ? serving.drain(config.http.drainGraceMs) : serving.close();
    await done.catch((error) => log(`error while closing: ${(error as Error).message}`));
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', false));
  process.on('SIGTERM', () => void shutdown('SIGTERM', true));
  log(`listening on ${serving.url}${authToken ? ' (bearer token required)' : ''}`);
  log(view.urlLine(new URL(serving.url).origin));
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error) => {
    log(`fatal: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
