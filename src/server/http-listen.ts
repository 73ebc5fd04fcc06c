/**
 * Starting a Node HTTP server on a host and port, shared by the MCP HTTP server and the view's own listener.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens (rejecting on a bind error such as EADDRINUSE) and resolves to the origin, `http://host:port`. */
export async function listenOn(http: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = (http.address() as AddressInfo).port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}
