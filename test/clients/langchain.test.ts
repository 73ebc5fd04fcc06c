/**
 * LangChain.js: `@langchain/mcp-adapters`' MultiServerMCPClient (stdio), its tools in a LangGraph ReAct agent whose
 * model is a real `ChatOpenAI` on the chat completions API, given a fake `fetch`: no network, and what the model
 * sees is the request body ChatOpenAI would send to OpenAI. So the ToolMessage content blocks the adapter makes
 * must survive ChatOpenAI's own formatting (it throws on some, e.g. a `file` block with a non-data URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SKIP, scenarioTests, serverCommand, serverEnv, type SeenResult, type Step } from './scenarios.js';

// Type-only imports are erased, so Node < 22 never loads the packages; the values are imported in before().
import type { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** The parts of a chat completions request body the suite reads. */
interface ChatRequest {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; parameters: { type?: string } } }[];
}

describe('LangChain.js (@langchain/mcp-adapters, ChatOpenAI chat completions)', { skip: SKIP }, () => {
  let mcp: MultiServerMCPClient;
  let tools: StructuredToolInterface[];
  let ChatOpenAI: typeof import('@langchain/openai').ChatOpenAI;
  let createReactAgent: typeof import('@langchain/langgraph/prebuilt').createReactAgent;

  before(async () => {
    ({ ChatOpenAI } = await import('@langchain/openai'));
    ({ createReactAgent } = await import('@langchain/langgraph/prebuilt'));
    const { MultiServerMCPClient } = await import('@langchain/mcp-adapters');
    mcp = new MultiServerMCPClient({
      mcpServers: { python: { transport: 'stdio', ...serverCommand(), env: serverEnv, stderr: 'inherit' } },
    });
    tools = await mcp.getTools();
  });
  after(() => mcp?.close());

  /** The last tool message of a request body, as the model receives it. */
  function lastToolResult(body: ChatRequest): SeenResult | undefined {
    const message = body.messages.findLast((m) => m.role === 'tool');
    if (!message) return undefined;
    const seen: SeenResult = { texts: [], images: [], raw: message };
    if (typeof message.content === 'string') seen.texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content as { type: string; text?: string; image_url?: { url: string } }[]) {
        const dataUrl = part.type === 'image_url' ? /^data:([^;]+);base64,(.*)$/s.exec(part.image_url?.url ?? '') : null;
        if (part.type === 'text' && typeof part.text === 'string') seen.texts.push(part.text);
        else if (dataUrl) seen.images.push({ mediaType: dataUrl[1]!, data: dataUrl[2]! });
        else seen.texts.push(JSON.stringify(part));
      }
    } else seen.texts.push(JSON.stringify(message.content));
    return seen;
  }

  /** Runs the agent with ChatOpenAI answering from a fake fetch that makes `steps`' calls. */
  async function run(steps: Step[], bodies: ChatRequest[] = []): Promise<SeenResult[]> {
    const seen: SeenResult[] = [];
    // The OpenAI client reports anything fetch throws as "Connection error.", so a failed step is kept to rethrow.
    let stepFailure: unknown;
    const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as ChatRequest;
      bodies.push(body);
      const previous = lastToolResult(body);
      if (previous) seen.push(previous);
      const step = steps[bodies.length - 1];
      let call;
      try {
        call = step?.(previous);
      } catch (error) {
        stepFailure = error;
        throw error;
      }
      const message = call
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: `call_${bodies.length}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } },
            ],
          }
        : { role: 'assistant', content: 'done' };
      const completion = {
        id: `chatcmpl-${bodies.length}`,
        object: 'chat.completion',
        created: 0,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop', logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
      return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const llm = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'sk-no-network',
      useResponsesApi: false,
      maxRetries: 0,
      configuration: { fetch },
    });
    const agent = createReactAgent({ llm, tools });
    try {
      await agent.invoke({ messages: [{ role: 'user', content: 'Use Python.' }] }, { recursionLimit: 2 * steps.length + 3 });
    } catch (error) {
      throw stepFailure ?? error;
    }
    assert.equal(seen.length, steps.length, 'the agent stopped before every tool result reached the model');
    return seen;
  }

  it('every tool converts and reaches the chat completions request as a function with an object schema', async () => {
    const listed = await (await mcp.getClient('python'))!.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), listed.tools.map((t) => t.name).sort());
    const bodies: ChatRequest[] = [];
    await run([], bodies);
    const offered = bodies[0]!.tools ?? [];
    assert.deepEqual(offered.map((t) => t.function.name).sort(), listed.tools.map((t) => t.name).sort());
    for (const tool of offered) assert.equal(tool.function.parameters.type, 'object', tool.function.name);
  });

  scenarioTests(() => ({ run }));
});
