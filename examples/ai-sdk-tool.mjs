// The Vercel AI SDK with the in-process library API wrapped as a tool: no MCP, no child process for the server.
// Run: node examples/ai-sdk-tool.mjs (with OPENAI_API_KEY and `@ai-sdk/openai` installed), or pass any model to
// analyze(). Needs Node 22+ (the `ai` package's requirement).
/* global process, console -- examples are Node programs */
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { createSandbox } from 'pyodide-mcp';

/** Asks `model` a question it may answer by running Python in one sandboxed session; the sandbox ends with it. */
export async function analyze(model, prompt) {
  const sandbox = await createSandbox({ preload: [], warmSessions: 1, log: () => {} });
  try {
    const session = await sandbox.createSession();
    const python = tool({
      description: 'Runs Python in a persistent sandboxed session (variables persist). Returns stdout, the last expression and any error.',
      inputSchema: z.object({ code: z.string().describe('Python source') }),
      execute: async ({ code }) => {
        const r = await session.execute(code, { timeoutSeconds: 30 });
        return { stdout: r.stdout, result: r.result, error: r.error && `${r.error.type}: ${r.error.message}` };
      },
    });
    return await generateText({ model, prompt, tools: { python }, stopWhen: stepCountIs(5) });
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { openai } = await import('@ai-sdk/openai');
  const { text } = await analyze(openai('gpt-4.1-mini'), 'What is the 30th Fibonacci number? Compute it.');
  console.log(text);
}
