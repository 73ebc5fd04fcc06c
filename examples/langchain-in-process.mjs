// LangChain.js tools from the MCP server running in this process: createMcpServer() + the SDK's InMemoryTransport,
// loaded by @langchain/mcp-adapters. Give the tools to any LangChain agent (e.g. createReactAgent from
// @langchain/langgraph/prebuilt with a chat model). Needs Node 22+ (the LangChain packages' requirement).
// The client is the v1 SDK's (@modelcontextprotocol/sdk, which @langchain/mcp-adapters depends on and calls with
// v1 signatures); the in-memory pair comes from the v2 server package, the server's side of it: the two SDKs share
// the wire format, and a 2025-era client talks to our v2 server over any transport.
/* global process, console -- examples are Node programs */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { createMcpServer } from 'pyodide-mcp';

/** LangChain tools for every pyodide-mcp tool, and close() to end the server and its sandbox. */
export async function pythonTools() {
  const server = await createMcpServer({ preload: [], warmSessions: 1, log: () => {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'langchain', version: '1.0.0' });
  await client.connect(clientSide);
  const tools = await loadMcpTools('python', client);
  // Closing the client closes the linked server transport, which closes the server's own sandbox.
  return { tools, close: () => client.close() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { tools, close } = await pythonTools();
  const execute = tools.find((t) => t.name === 'execute_code');
  console.log(await execute.invoke({ code: 'sum(i * i for i in range(101))' }));
  await close();
}
