/**
 * LangChain.js: `@langchain/mcp-adapters`' MultiServerMCPClient (stdio), its tools in a LangGraph ReAct agent whose
 * model is a real `ChatOpenAI` given a fake `fetch`: no network, and what the model sees is the request body
 * ChatOpenAI would send to OpenAI. So the ToolMessage content blocks the adapter makes must survive ChatOpenAI's own
 * formatting (it throws on some, e.g. a `file` block with a non-data URL). The scenarios run on the Responses API,
 * where a figure can reach the model; chat completions, where it cannot, has its own tests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  PLOT,
  SKIP,
  scenarioTests,
  serverCommand,
  serverEnv,
  preview,
  textOf,
  type SeenResult,
  type Step,
  type ToolCall,
} from './scenarios.js';

// Type-only imports are erased, so Node < 22 never loads the packages; the values are imported in before().
import type { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** The parts of a Responses API request body the suite reads. */
interface ResponsesRequest {
  input: { type?: string; output?: string | { type: string; text?: string; image_url?: string }[] }[];
}

/** The parts of a chat completions request body the suite reads. */
interface ChatRequest {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; parameters: { type?: string } } }[];
}

describe('LangChain.js (@langchain/mcp-adapters, ChatOpenAI on a fake fetch)', { skip: SKIP }, () => {
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

  /** Splits parts of a tool result into what the model reads: text, and images given as data URLs. */
  function seenFrom(raw: unknown, parts: { type: string; text?: string; url?: string }[]): SeenResult {
    const seen: SeenResult = { texts: [], images: [], raw };
    for (const part of parts) {
      const dataUrl = part.url === undefined ? null : /^data:([^;]+);base64,(.*)$/s.exec(part.url);
      if (part.text !== undefined) seen.texts.push(part.text);
      else if (dataUrl) seen.images.push({ mediaType: dataUrl[1]!, data: dataUrl[2]! });
      else seen.texts.push(JSON.stringify(part));
    }
    return seen;
  }

  /** The last tool result of a chat completions request body: a `tool` message. */
  function lastToolMessage(body: ChatRequest): SeenResult | undefined {
    const message = body.messages.findLast((m) => m.role === 'tool');
    if (!message) return undefined;
    if (!Array.isArray(message.content)) return seenFrom(message, [{ type: 'text', text: String(message.content) }]);
    const parts = message.content as { type: string; text?: string; image_url?: { url: string } }[];
    return seenFrom(
      message,
      parts.map((p) => (p.type === 'text' ? { type: p.type, text: p.text ?? '' } : { type: p.type, url: p.image_url?.url })),
    );
  }

  /** The last tool result of a Responses API request body: a `function_call_output` item. */
  function lastFunctionCallOutput(body: ResponsesRequest): SeenResult | undefined {
    const item = body.input.findLast((i) => i.type === 'function_call_output');
    if (!item) return undefined;
    if (!Array.isArray(item.output)) return seenFrom(item, [{ type: 'text', text: String(item.output) }]);
    return seenFrom(
      item,
      item.output.map((p) => (p.type === 'input_text' ? { type: p.type, text: p.text ?? '' } : { type: p.type, url: p.image_url })),
    );
  }

  /** A chat completions reply making `call`, or saying 'done'. */
  function completion(n: number, call: ToolCall | undefined): object {
    const message = call
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
        }
      : { role: 'assistant', content: 'done' };
    return {
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: 0,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop', logprobs: null }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }

  /** A Responses API reply making `call`, or saying 'done'. */
  function response(n: number, call: ToolCall | undefined): object {
    const output = call
      ? {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: call.name,
          arguments: JSON.stringify(call.args),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${n}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'done', annotations: [] }],
        };
    return {
      id: `resp_${n}`,
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'gpt-4o-mini',
      output: [output],
      usage: {
        input_tokens: 1,
        output_tokens: 1,
        total_tokens: 2,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
      error: null,
      incomplete_details: null,
    };
  }

  /**
   * Runs the agent with ChatOpenAI answering from a fake fetch that makes `steps`' calls, on the Responses API (the
   * one of OpenAI's two that takes images in a tool result) or chat completions (ChatOpenAI's default, whose tool
   * messages are text only). `agentTools` defaults to the adapter's tools with default options.
   */
  async function run(
    steps: Step[],
    options: { api?: 'completions' | 'responses'; bodies?: unknown[]; agentTools?: StructuredToolInterface[] } = {},
  ): Promise<SeenResult[]> {
    const { api = 'responses', bodies = [], agentTools = tools } = options;
    const seen: SeenResult[] = [];
    // The OpenAI client reports anything fetch throws as "Connection error.", so a failed step is kept to rethrow.
    let stepFailure: unknown;
    const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as ChatRequest & ResponsesRequest;
      bodies.push(body);
      const previous = api === 'completions' ? lastToolMessage(body) : lastFunctionCallOutput(body);
      if (previous) seen.push(previous);
      let call;
      try {
        call = steps[bodies.length - 1]?.(previous);
      } catch (error) {
        stepFailure = error;
        throw error;
      }
      const reply = api === 'completions' ? completion(bodies.length, call) : response(bodies.length, call);
      return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const llm = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'sk-no-network',
      useResponsesApi: api === 'responses',
      maxRetries: 0,
      configuration: { fetch },
    });
    const agent = createReactAgent({ llm, tools: agentTools });
    let state;
    try {
      state = await agent.invoke({ messages: [{ role: 'user', content: 'Use Python.' }] }, { recursionLimit: 2 * steps.length + 3 });
    } catch (error) {
      throw stepFailure ?? error;
    }
    assert.equal(seen.length, steps.length, 'the agent stopped before every tool result reached the model');
    // For assertion messages: the ToolMessage content the adapter made, next to what ChatOpenAI sent.
    const toolMessages = state.messages.filter((m) => m.getType() === 'tool');
    seen.forEach((result, i) => {
      const message = toolMessages[i] as { content?: unknown; artifact?: unknown } | undefined;
      result.raw = { sent: result.raw, toolMessage: { content: message?.content, artifact: message?.artifact } };
    });
    return seen;
  }

  it('every tool converts and reaches the chat completions request as a function with an object schema', async () => {
    const listed = await (await mcp.getClient('python'))!.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), listed.tools.map((t) => t.name).sort());
    const bodies: ChatRequest[] = [];
    await run([], { api: 'completions', bodies });
    const offered = bodies[0]!.tools ?? [];
    assert.deepEqual(offered.map((t) => t.function.name).sort(), listed.tools.map((t) => t.name).sort());
    for (const tool of offered) assert.equal(tool.function.parameters.type, 'object', tool.function.name);
  });

  const { sharedSession } = scenarioTests(() => ({ run: (steps) => run(steps) }), true);

  /** A plot in the shared session, run through ChatOpenAI on chat completions. */
  const plotOnCompletions = (agentTools: StructuredToolInterface[], bodies: ChatRequest[]) =>
    run([() => ({ name: 'execute_code', args: { code: PLOT, session_id: sharedSession() } })], { api: 'completions', bodies, agentTools });

  // Chat completions takes only text in a tool message (openai's ChatCompletionToolMessageParam; the API answers 400
  // "Image URLs are only allowed for messages with role 'user'"), so no setting gets a figure to the model there.
  it('chat completions, adapter defaults: a plot result goes through ChatOpenAI formatting without throwing', async () => {
    const [plot] = await plotOnCompletions(tools, []);
    assert.match(textOf(plot!), /figures\/\S+\.png/, preview(plot!));
    assert.doesNotMatch(textOf(plot!), /iVBORw0KGgo/, 'the PNG reached the model as base64 text');
  });

  it('chat completions, images as artifacts: the request is text-only as the API requires, the image stays on the ToolMessage', async () => {
    const { loadMcpTools } = await import('@langchain/mcp-adapters');
    const client = await mcp.getClient('python');
    assert.ok(client);
    const artifactTools = await loadMcpTools('python', client, { outputHandling: { image: 'artifact' } });
    const bodies: ChatRequest[] = [];
    const [plot] = await plotOnCompletions(artifactTools, bodies);
    assert.match(textOf(plot!), /figures\/\S+\.png/, preview(plot!));
    for (const message of bodies.flatMap((b) => b.messages).filter((m) => m.role === 'tool')) {
      const parts = Array.isArray(message.content) ? (message.content as { type: string }[]) : [];
      assert.deepEqual(
        parts.filter((p) => p.type !== 'text'),
        [],
        'a tool message with more than text',
      );
    }
    const artifact = (plot!.raw as { toolMessage: { artifact?: { type: string; mimeType?: string }[] } }).toolMessage.artifact ?? [];
    assert.ok(
      artifact.some((a) => a.type === 'image' && a.mimeType === 'image/png'),
      `no PNG among the ToolMessage's artifacts: ${preview(plot!)}`,
    );
  });
});
