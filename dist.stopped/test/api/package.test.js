/**
 * The published package as a consumer gets it: `npm pack` → the tarball unpacked as node_modules/pyodide-mcp of a
 * fresh project → a TypeScript consumer type-checked by tsc against the shipped .d.ts, then run: it imports
 * 'pyodide-mcp', runs code, closes the sandbox and must exit by itself (no worker, timer or pipe left behind).
 *
 * Why not `npm install <tarball>`: tests never use the network, and an offline install needs registry metadata that
 * npm ci does not leave in the cache. The project gets this repository's installed production dependencies instead
 * (`npm ls --omit=dev`, hard-linked, copied across file systems), laid out as npm would: a runtime dependency
 * missing from package.json fails here. Not symlinks: Node's permission model in the session worker checks the
 * path a module is read through, and a real install has no links.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../../src/paths.js';
const CONSUMER = `
import { createMcpServer, createSandbox, PyodideMcpError, type ExecutionResult, type SandboxOptions } from 'pyodide-mcp';

const options: SandboxOptions = { preload: [], warmSessions: 1, timeoutSeconds: 10, log: () => {} };
const sandbox = await createSandbox(options);
const session = await sandbox.createSession();
const r: ExecutionResult = await session.execute('x = 41\\nx + 1');
await session.writeFile('data.csv', 'a,b\\n1,2\\n');
const text: string = await session.readFile('data.csv', 'utf8');
const internalPath = 'pyodide-mcp/dist/src/cli.js';
let internal = 'importable';
try {
  await import(internalPath);
} catch (error) {
  internal = (error as { code?: string }).code ?? String(error);
}
/** Never called: what the types must refuse. */
function refusedByTypes(): void {
  // @ts-expect-error: not an option (the flag is timeoutSeconds)
  void createSandbox({ timeout: 5 });
  // @ts-expect-error: preload is a list
  void createSandbox({ preload: 'numpy' });
  // @ts-expect-error: execute takes code as a string
  void session.execute(42);
}
void refusedByTypes;
await session.close();
let code = '';
try {
  await session.execute('x');
} catch (error) {
  if (error instanceof PyodideMcpError) code = error.code;
}
await sandbox.close();
process.stdout.write(JSON.stringify({ result: r.result, text, internal, code, createMcpServer: typeof createMcpServer }));
`;
describe('the packed package, installed in a fresh project', () => {
    let dir;
    let project;
    before(() => {
        dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-pack-'));
        project = join(dir, 'project');
        // Already built by the test run; --ignore-scripts skips `prepare` (a second build).
        const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: PACKAGE_ROOT, encoding: 'utf8' }));
        const installed = join(project, 'node_modules', 'pyodide-mcp');
        mkdirSync(installed, { recursive: true });
        execFileSync('tar', ['-xzf', join(dir, packed[0].filename), '-C', installed, '--strip-components=1']);
        const production = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: PACKAGE_ROOT, encoding: 'utf8' })
            .split('\n')
            .map((path) => relative(PACKAGE_ROOT, path))
            // Top-level packages only: copying them copies what is nested in them.
            .filter((path) => /^node_modules[\\/](@[^\\/]+[\\/])?[^\\/@]+$/.test(path.split(sep).join('/')));
        for (const path of production) {
            const target = join(project, path);
            mkdirSync(dirname(target), { recursive: true });
            try {
                execFileSync('cp', ['-al', join(PACKAGE_ROOT, path), target]);
            }
            catch {
                execFileSync('cp', ['-a', join(PACKAGE_ROOT, path), target]);
            }
        }
        writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
        writeFileSync(join(project, 'consumer.ts'), CONSUMER);
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
            compilerOptions: {
                target: 'ES2022',
                module: 'NodeNext',
                moduleResolution: 'NodeNext',
                strict: true,
                types: ['node'],
                typeRoots: [join(PACKAGE_ROOT, 'node_modules', '@types')],
                outDir: 'out',
            },
            files: ['consumer.ts'],
        }));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    it('type-checks a consumer against the shipped declarations', () => {
        const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
        try {
            execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
        }
        catch (error) {
            assert.fail(`tsc: ${error.stdout}`);
        }
    });
    it("runs: import { createSandbox } from 'pyodide-mcp', internals closed off, and the process exits by itself", async () => {
        const child = spawn(process.execPath, [join(project, 'out', 'consumer.js')], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
        // No process.exit() in the consumer: it exits once nothing is left running.
        const exitCode = await new Promise((resolve) => child.on('exit', resolve));
        assert.equal(exitCode, 0, stderr);
        assert.deepEqual(JSON.parse(stdout), {
            result: '42',
            text: 'a,b\n1,2\n',
            internal: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
            code: 'SESSION_NOT_FOUND',
            createMcpServer: 'function',
        });
    });
});
