// OpenAI Agents JS connected to `pyodide-mcp --http` over Streamable HTTP with a bearer token.
// Start the server:  PYODIDE_MCP_AUTH_TOKEN=<token> npx pyodide-mcp --http 127.0.0.1:8931
// Run:               PYODIDE_MCP_AUTH_TOKEN=<token> OPENAI_API_KEY=… node examples/openai-agents-http.mjs
// Needs Node 22+ (the `@openai/agents` package's requirement).
/* global process, console -- examples are Node programs */
import { Agent, MCPServerStreamableHttp, Runner } from '@openai/agents';

/** Runs an agent whose Python tools are the MCP server at `url`; `model` is a model name or a Model instance. */
export async function ask({ url, token, model, prompt }) {
  const python = new MCPServerStreamableHttp({
    name: 'python',
    url,
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    cacheToolsList: true,
  });
  await python.connect();
  try {
    const agent = new Agent({
      name: 'analyst',
      instructions: 'Answer by running Python with execute_code; keep the session_id to reuse variables.',
      model,
      mcpServers: [python],
    });
    return await new Runner({ tracingDisabled: true }).run(agent, prompt, { maxTurns: 6 });
  } finally {
    await python.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await ask({
    url: process.env.PYODIDE_MCP_URL ?? 'http://127.0.0.1:8931/mcp',
    token: process.env.PYODIDE_MCP_AUTH_TOKEN,
    model: 'gpt-4.1-mini',
    prompt: 'What is the sum of the squares of 1..100? Compute it.',
  });
  console.log(result.finalOutput);
}
