/** Test helpers: start the built server over real stdio and talk to it with the SDK's own Client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
/** dist/src/cli.js, from dist/test/. */
export const CLI = join(fileURLToPath(import.meta.url), '..', '..', 'src', 'cli.js');
/** Starts `pyodide-mcp` with the given flags (default: no preload, modern runtime) and connects a client. */
export async function startServer(flags = [], env = {}) {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, ...flags],
        env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none', ...env },
        stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
    const client = new Client({ name: 'pyodide-mcp-tests', version: '0.0.0' });
    await client.connect(transport);
    const call = (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    return {
        client,
        transport,
        stderr: () => stderr,
        call,
        async ok(name, args) {
            const result = await call(name, args);
            if (result.isError)
                throw new Error(`${name} failed: ${textOf(result)}`);
            return result.structuredContent;
        },
        close: () => client.close(),
    };
}
export function textOf(result) {
    return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}
/** Polls `check` until it returns true or `ms` pass; for states that change on a server-side timer. */
export async function eventually(check, ms, what) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
        if (await check())
            return;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out after ${ms} ms waiting for: ${what}`);
}
