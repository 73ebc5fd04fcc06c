/**
 * Vercel AI SDK: `@ai-sdk/mcp`'s stdio client, its tools run by `generateText` with the SDK's own mock model
 * (`MockLanguageModelV4` from `ai/test`). What the model sees is the prompt the mock receives: each tool result
 * there has gone through the MCP tools' `toModelOutput` (text parts, images as `file` parts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SKIP, scenarioTests, serverCommand, serverEnv } from './scenarios.js';
describe('Vercel AI SDK (@ai-sdk/mcp)', { skip: SKIP }, () => {
    let mcp;
    let tools;
    let ai;
    let MockLanguageModelV4;
    before(async () => {
        ai = await import('ai');
        ({ MockLanguageModelV4 } = await import('ai/test'));
        const { createMCPClient } = await import('@ai-sdk/mcp');
        const { Experimental_StdioMCPTransport } = await import('@ai-sdk/mcp/mcp-stdio');
        mcp = await createMCPClient({
            transport: new Experimental_StdioMCPTransport({ ...serverCommand(), env: serverEnv, stderr: 'inherit' }),
        });
        tools = await mcp.tools();
    });
    after(() => mcp?.close());
    /** Usage of a mock step; the SDK requires every field. */
    const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    /** The last tool result in a prompt, as the model receives it. */
    function lastToolResult(prompt) {
        const message = prompt.findLast((m) => m.role === 'tool');
        if (!message)
            return undefined;
        const part = message.content.findLast((p) => p.type === 'tool-result');
        assert.ok(part, 'tool message without a tool-result part');
        const output = part.output;
        const seen = { texts: [], images: [], raw: output };
        if (output.type === 'content') {
            for (const item of output.value) {
                if (item.type === 'text')
                    seen.texts.push(item.text);
                else if (item.type === 'file' && item.data.type === 'data')
                    seen.images.push({
                        mediaType: item.mediaType,
                        data: typeof item.data.data === 'string' ? item.data.data : Buffer.from(item.data.data).toString('base64'),
                    });
                else
                    seen.texts.push(JSON.stringify(item));
            }
        }
        else if (output.type === 'text' || output.type === 'error-text')
            seen.texts.push(output.value);
        else
            seen.texts.push(JSON.stringify(output));
        return seen;
    }
    /** Runs generateText with a mock model that makes `steps`' calls; returns the tool results it was given. */
    async function run(steps, calls = []) {
        const seen = [];
        const model = new MockLanguageModelV4({
            doGenerate: async (options) => {
                calls.push(options);
                const previous = lastToolResult(options.prompt);
                if (previous)
                    seen.push(previous);
                const step = steps[calls.length - 1];
                if (!step)
                    return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
                const call = step(previous);
                return {
                    content: [{ type: 'tool-call', toolCallId: `call-${calls.length}`, toolName: call.name, input: JSON.stringify(call.args) }],
                    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                    usage,
                    warnings: [],
                };
            },
        });
        await ai.generateText({ model, tools, prompt: 'Use Python.', stopWhen: ai.stepCountIs(steps.length + 1) });
        assert.equal(seen.length, steps.length, 'the loop stopped before every tool result reached the model');
        return seen;
    }
    it('every tool converts and reaches the model with an object input schema', async () => {
        const listed = await mcp.listTools();
        assert.deepEqual(Object.keys(tools).sort(), listed.tools.map((t) => t.name).sort());
        const calls = [];
        await run([], calls);
        const offered = calls[0].tools ?? [];
        assert.deepEqual(offered.map((t) => t.name).sort(), Object.keys(tools).sort());
        for (const tool of offered) {
            assert.equal(tool.type, 'function');
            if (tool.type === 'function')
                assert.equal(tool.inputSchema.type, 'object', tool.name);
        }
    });
    scenarioTests(() => ({ run }));
});
