/** Test helper: createServer() in this process with these flags, and the SDK's Client over the in-memory transport. */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createServer, type CreatedServer } from '../../src/server/server.js';
import { testConfig } from '../helpers.js';

export interface InMemoryServer {
  created: CreatedServer;
  client: Client;
  /** Closes the client, then the server and its sessions. */
  close: () => Promise<void>;
}

/** Builds the server from `flags` (as the CLI would parse them, no env) and connects a client to it. */
export async function startInMemory(flags: string[]): Promise<InMemoryServer> {
  const { config, distribution } = testConfig(flags);
  const created = createServer({ config, distribution, version: 'test', log: () => {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'in-memory', version: '0' });
  await Promise.all([created.server.connect(serverSide), client.connect(clientSide)]);
  return {
    created,
    client,
    close: async () => {
      await client.close();
      await created.close();
    },
  };
}
