/**
 * Mastra: `@mastra/mcp`'s MCPClient (stdio), its tools on a `@mastra/core` Agent whose model is Mastra's own mock
 * (`MastraLanguageModelV2Mock`). The server runs with `--no-structured-content`: Mastra hands its model only the text
 * blocks of a result that carries structuredContent, so without the flag a figure never reaches the model. What
 * the model sees is the prompt the mock receives (each tool result after Mastra's tool result conversion).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SKIP, scenarioTests, serverCommand, serverEnv } from './scenarios.js';
/** Mastra namespaces MCP tools as `<server>_<tool>`. */
const SERVER = 'python';
describe('Mastra (@mastra/mcp, server with --no-structured-content)', { skip: SKIP }, () => {
    let mcp;
    let tools;
    let Agent;
    let MastraLanguageModelV2Mock;
    before(async () => {
        ({ Agent } = await import('@mastra/core/agent'));
        ({ MastraLanguageModelV2Mock } = await import('@mastra/core/test-utils/llm-mock'));
        const { MCPClient } = await import('@mastra/mcp');
        mcp = new MCPClient({
            id: 'pyodide-mcp-clients-suite',
            servers: { [SERVER]: { ...serverCommand('--no-structured-content'), env: serverEnv, stderr: 'inherit' } },
        });
        // Mastra logs a server that fails to start and lists no tools for it; the suite wants the reason.
        const listed = await mcp.listToolsWithErrors();
        assert.deepEqual(listed.errors, {}, 'Mastra could not connect to the server');
        tools = listed.tools;
    });
    after(() => mcp?.disconnect());
    /** The last tool result in a prompt, as the model receives it. */
    function lastToolResult(prompt) {
        const message = prompt.findLast((m) => m.role === 'tool');
        if (!message || !Array.isArray(message.content))
            return undefined;
        const part = message.content.findLast((p) => p.type === 'tool-result');
        assert.ok(part?.output, `tool message without a tool-result output: ${JSON.stringify(message).slice(0, 500)}`);
        const output = part.output;
        const seen = { texts: [], images: [], raw: output };
        if (output.type === 'content') {
            for (const item of output.value) {
                if (item.type === 'text')
                    seen.texts.push(item.text);
                else if (item.mediaType?.startsWith('image/'))
                    seen.images.push({ mediaType: item.mediaType, data: item.data });
                else
                    seen.texts.push(JSON.stringify(item));
            }
        }
        else if (output.type === 'text' || output.type === 'error-text')
            seen.texts.push(output.value);
        else
            seen.texts.push(JSON.stringify(output.value));
        return seen;
    }
    /** A stream of LanguageModelV2 parts for one mock turn. */
    function stream(parts) {
        return new ReadableStream({
            start(controller) {
                for (const part of parts)
                    controller.enqueue(part);
                controller.close();
            },
        });
    }
    /** Runs the agent with Mastra's mock model making `steps`' calls; returns the tool results it was given. */
    async function run(steps, calls = []) {
        const seen = [];
        const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
        /** One turn: records what the model was given and answers with the next call of the script, or 'done'. */
        const turn = (options) => {
            const call = options;
            calls.push(call);
            const previous = lastToolResult(call.prompt);
            if (previous)
                seen.push(previous);
            const step = steps[calls.length - 1];
            if (!step)
                return { content: [{ type: 'text', text: 'done' }], finishReason: 'stop' };
            const next = step(previous);
            const toolCall = {
                type: 'tool-call',
                toolCallId: `call-${calls.length}`,
                toolName: `${SERVER}_${next.name}`,
                input: JSON.stringify(next.args),
            };
            return { content: [toolCall], finishReason: 'tool-calls' };
        };
        // Mastra may take either path (generate() is not always streamed underneath): both answer the same turn.
        const model = new MastraLanguageModelV2Mock({
            doGenerate: async (options) => ({ ...turn(options), usage, warnings: [] }),
            doStream: async (options) => {
                const { content, finishReason } = turn(options);
                const parts = [{ type: 'stream-start', warnings: [] }];
                for (const part of content) {
                    if (part.type === 'text')
                        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
                    else
                        parts.push(part);
                }
                parts.push({ type: 'finish', finishReason, usage });
                return { stream: stream(parts) };
            },
        });
        const agent = new Agent({ id: 'python-agent', name: 'python-agent', instructions: 'Use Python.', model, tools: tools });
        await agent.generate('Use Python.', { maxSteps: steps.length + 1 });
        assert.equal(seen.length, steps.length, 'the agent stopped before every tool result reached the model');
        return seen;
    }
    it('every tool converts and reaches the model with an object input schema', async () => {
        const definitions = await mcp.listToolDefinitions();
        const listed = Object.keys(definitions[SERVER] ?? {}).map((name) => `${SERVER}_${name}`);
        assert.deepEqual(Object.keys(tools).sort(), listed.sort());
        const calls = [];
        await run([], calls);
        const offered = calls[0].tools ?? [];
        assert.deepEqual(offered.map((t) => t.name).sort(), Object.keys(tools).sort());
        for (const tool of offered)
            assert.equal(tool.inputSchema?.type, 'object', tool.name);
    });
    scenarioTests(() => ({ run }));
});
