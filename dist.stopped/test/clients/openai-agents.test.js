/**
 * OpenAI Agents JS: `MCPServerStdio` on an Agent with `convertSchemasToStrict: true`, run by the SDK's Runner with a
 * scripted Model (the SDK has no mock model, so this implements its `Model` interface). What the model sees is the
 * ModelRequest: the tools offered (strict or not) and each `function_call_result` after the runner's tool output
 * normalisation (structured `input_text`/`input_image` items, or one string when it gives up on the shape).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SKIP, scenarioTests, serverCommand, serverEnv } from './scenarios.js';
describe('OpenAI Agents JS (@openai/agents MCPServerStdio, strict schemas)', { skip: SKIP }, () => {
    let agents;
    let server;
    /** console.warn calls made while the agent converted the MCP tools (the SDK warns there when it falls back). */
    const warnings = [];
    before(async () => {
        agents = await import('@openai/agents');
        // The SDK redacts the conversion error by default ("... strict mode: object"); the suite wants its reason.
        agents.setSensitiveDataLoggingEnabled(true);
        server = new agents.MCPServerStdio({ name: 'python', ...serverCommand(), env: serverEnv, cacheToolsList: true });
        await server.connect();
    });
    after(() => server?.close());
    /** The last function_call_result in the model's input, as the model receives it. */
    function lastToolResult(input) {
        if (typeof input === 'string')
            return undefined;
        const item = input.findLast((i) => i.type === 'function_call_result');
        if (!item || item.type !== 'function_call_result')
            return undefined;
        const seen = { texts: [], images: [], raw: item.output };
        const output = item.output;
        if (typeof output === 'string')
            seen.texts.push(output);
        else if (!Array.isArray(output)) {
            if (output.type === 'text')
                seen.texts.push(output.text);
            else
                seen.texts.push(JSON.stringify(output));
        }
        else {
            for (const part of output) {
                if (part.type === 'input_text')
                    seen.texts.push(part.text);
                else if (part.type === 'input_image' && typeof part.image === 'string') {
                    const dataUrl = /^data:([^;]+);base64,(.*)$/s.exec(part.image);
                    if (dataUrl)
                        seen.images.push({ mediaType: dataUrl[1], data: dataUrl[2] });
                    else
                        seen.texts.push(JSON.stringify(part));
                }
                else
                    seen.texts.push(JSON.stringify(part));
            }
        }
        return seen;
    }
    /** Runs the agent with a Model that makes `steps`' calls; returns the tool results it was given. */
    async function run(steps, requests = []) {
        const seen = [];
        const model = {
            async getResponse(request) {
                requests.push(request);
                const previous = lastToolResult(request.input);
                if (previous)
                    seen.push(previous);
                const step = steps[requests.length - 1];
                const usage = new agents.Usage();
                if (!step) {
                    return {
                        usage,
                        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }],
                    };
                }
                const call = step(previous);
                return {
                    usage,
                    output: [
                        {
                            type: 'function_call',
                            callId: `call-${requests.length}`,
                            name: call.name,
                            arguments: JSON.stringify(call.args),
                            status: 'completed',
                        },
                    ],
                };
            },
            getStreamedResponse() {
                throw new Error('the suite runs the agent without streaming');
            },
        };
        const agent = new agents.Agent({
            name: 'python-agent',
            instructions: 'Use Python.',
            model,
            mcpServers: [server],
            mcpConfig: { convertSchemasToStrict: true },
        });
        const warn = console.warn;
        console.warn = (...args) => {
            warnings.push(args.map(String).join(' '));
        };
        try {
            const runner = new agents.Runner({ tracingDisabled: true });
            await runner.run(agent, 'Use Python.', { maxTurns: steps.length + 2 });
        }
        finally {
            console.warn = warn;
        }
        assert.equal(seen.length, steps.length, 'the run stopped before every tool result reached the model');
        return seen;
    }
    it('every tool converts to a strict function tool, with no fallback warning', async () => {
        warnings.length = 0;
        const listed = await server.listTools();
        const requests = [];
        await run([], requests);
        const offered = requests[0].tools;
        assert.deepEqual(offered.map((t) => t.name).sort(), listed.map((t) => t.name).sort());
        const notStrict = offered.filter((t) => t.type !== 'function' || t.strict !== true).map((t) => t.name);
        assert.deepEqual(notStrict, [], `tools that fell back to non-strict schemas:\n${warnings.join('\n')}`);
        assert.deepEqual(warnings, [], 'the SDK warned while converting the MCP tools');
    });
    scenarioTests(() => ({ run }));
});
