/**
 * Each example of examples/ runs here with a scripted model (no network, no API key): the AI SDK with the library
 * wrapped as a tool, OpenAI Agents JS over Streamable HTTP to the built command, LangChain.js over createMcpServer
 * and the in-memory transport. The frameworks need Node 22+ and are the client suite's development dependencies
 * (test/clients); on Node 20 these tests are skipped with the reason, and CI runs them on Node 22 (.ci/run).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { CLI } from '../helpers.js';

const example = (name: string) => pathToFileURL(join(PACKAGE_ROOT, 'examples', name)).href;

/** Why a framework's example cannot run here, or false. */
function skipFor(pkg: string): string | false {
  if (Number(process.versions.node.split('.')[0]) < 22) return 'the agent frameworks need Node 22+';
  return existsSync(join(PACKAGE_ROOT, 'node_modules', pkg, 'package.json')) ? false : `${pkg} is not installed`;
}

describe('examples', () => {
  it('ai-sdk-tool.mjs: generateText calls the sandbox tool', { skip: skipFor('ai') }, async () => {
    const { analyze } = await import(example('ai-sdk-tool.mjs'));
    const { MockLanguageModelV4 } = (await import('ai/test' as string)) as any;
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    let seen = '';
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async (options: any) => {
        calls++;
        if (calls === 1) {
          return {
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'python', input: JSON.stringify({ code: 'x = 6 * 7\nprint("hi")\nx' }) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        seen = JSON.stringify(options.prompt.findLast((m: any) => m.role === 'tool'));
        return { content: [{ type: 'text', text: 'It is 42.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      },
    });
    const { text } = await analyze(model, 'What is 6 * 7?');
    assert.equal(text, 'It is 42.');
    assert.match(seen, /"result":"42"/);
    assert.match(seen, /"stdout":"hi\\n"/);
  });

  it('openai-agents-http.mjs: an agent runs Python over Streamable HTTP with the token', { skip: skipFor('@openai/agents') }, async () => {
    const token = 'example-token-0123456789';
    const child = spawn(process.execPath, [CLI, '--http', ':0'], {
      env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none', PYODIDE_MCP_WARM_SESSIONS: '0', PYODIDE_MCP_AUTH_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /listening on (\S+)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
      });
      const agents = (await import('@openai/agents' as string)) as any;
      const { ask } = await import(example('openai-agents-http.mjs'));
      let seen = '';
      let turns = 0;
      const model = {
        async getResponse(request: any) {
          turns++;
          const usage = new agents.Usage();
          if (turns === 1) {
            return {
              usage,
              output: [
                {
                  type: 'function_call',
                  callId: 'c1',
                  name: 'execute_code',
                  arguments: JSON.stringify({ code: '6 * 7' }),
                  status: 'completed',
                },
              ],
            };
          }
          seen = JSON.stringify(request.input);
          return {
            usage,
            output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is 42.' }] }],
          };
        },
        getStreamedResponse() {
          throw new Error('not streamed');
        },
      };
      const result = await ask({ url, token, model, prompt: 'What is 6 * 7?' });
      assert.equal(result.finalOutput, 'It is 42.');
      assert.match(seen, /result: 42/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it(
    'langchain-in-process.mjs: LangChain tools over createMcpServer and the in-memory transport',
    { skip: skipFor('@langchain/mcp-adapters') },
    async () => {
      const { pythonTools } = await import(example('langchain-in-process.mjs'));
      const { tools, close } = await pythonTools();
      try {
        const execute = tools.find((t: any) => t.name === 'execute_code');
        const output = await execute.invoke({ code: 'sum(i * i for i in range(101))' });
        assert.match(JSON.stringify(output), /338350/);
      } finally {
        await close();
      }
    },
  );
});
