/** Figures, workspace files, resources, host copies and quotas, over real stdio with the SDK client. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, startServer, textOf, type Harness } from '../helpers.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('figures and files', () => {
  let h: Harness;
  let session_id: string;
  const hostDir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-host-'));
  writeFileSync(join(hostDir, 'input.csv'), 'x,y\n1,2\n3,4\n');
  writeFileSync(join(hostDir, '.env'), 'API_KEY=do-not-leak');
  before(async () => {
    h = await startServer(['--allow-dir', hostDir, '--max-session-bytes', '3000000', '--max-file-bytes', '2000000', '--max-files', '40'], {
      PYODIDE_MCP_PRELOAD: 'matplotlib',
    });
    session_id = (await h.ok('create_session')).session_id;
  });
  after(() => h.close());

  const exec = (code: string) => h.call('execute_code', { session_id, code });

  it('the sine-wave example yields a PNG file, an image block and a readable resource', async () => {
    const result = await exec(
      'import matplotlib.pyplot as plt\nimport numpy as np\nx = np.linspace(0, 10, 100)\nplt.plot(x, np.sin(x))\nplt.title("Sine Wave")\nplt.savefig("sine_wave.png")\nplt.show()',
    );
    const reply = result.structuredContent as any;
    assert.equal(reply.success, true, JSON.stringify(reply.error));
    const file = reply.files.find((f: any) => f.path === 'sine_wave.png');
    assert.ok(file, JSON.stringify(reply.files));
    assert.equal(file.mime_type, 'image/png');
    assert.equal(file.uri, `session://${session_id}/sine_wave.png`);
    const images = result.content.filter((c) => c.type === 'image') as { data: string; mimeType: string }[];
    assert.equal(images.length, 1, 'plt.show() captured the figure once');
    assert.deepEqual(Buffer.from(images[0]!.data, 'base64').subarray(0, 8), PNG_MAGIC);
    assert.ok(!result.content.some((c) => c.type === 'resource_link'), 'files are named in the text, not linked (--resource-links)');
    const resource = await h.client.readResource({ uri: file.uri });
    const blob = Buffer.from((resource.contents[0] as { blob: string }).blob, 'base64');
    assert.deepEqual(blob.subarray(0, 8), PNG_MAGIC);
    assert.equal(blob.byteLength, file.size);
  });

  it('an open figure without savefig is captured into the workspace and closed', async () => {
    const result = await exec('fig, ax = plt.subplots()\nax.bar(["a", "b"], [3, 5])');
    const reply = result.structuredContent as any;
    const figure = reply.display.find((d: any) => d.mime_type === 'image/png');
    assert.match(figure.path, /^figures\/cell\d+_1\.png$/);
    assert.ok(reply.files.some((f: any) => f.path === figure.path));
    assert.ok(result.content.some((c) => c.type === 'image'));
    const open = (await h.ok('execute_code', { session_id, code: 'len(plt.get_fignums())' })).result;
    assert.equal(open, '0');
  });

  it('honours the display protocol and display()', async () => {
    const reply = await h.ok('execute_code', {
      session_id,
      code:
        'class Md:\n    def _repr_markdown_(self):\n        return "**bold**"\n' +
        'from IPython.display import display, HTML\ndisplay(HTML("<i>hi</i>"))\ndisplay(Md())\ndisplay(7)\nMd()',
    });
    assert.deepEqual(
      reply.display.map((d: any) => [d.mime_type, d.text]),
      [
        ['text/html', '<i>hi</i>'],
        ['text/markdown', '**bold**'],
        ['text/markdown', '**bold**'],
      ],
    );
    assert.equal(reply.stdout, '7\n');
  });

  it('list_files shows files written by Python and by write_file', async () => {
    await h.ok('execute_code', {
      session_id,
      code: 'import os\nos.makedirs("out", exist_ok=True)\nopen("out/result.txt", "w").write("42")',
    });
    await h.ok('write_file', { session_id, path: 'notes/todo.md', content: '# todo' });
    const { entries } = await h.ok('list_files', { session_id });
    const paths = entries.map((e: any) => e.path);
    for (const p of ['out', 'out/result.txt', 'notes', 'notes/todo.md', 'sine_wave.png']) assert.ok(paths.includes(p), `${p} in ${paths}`);
    const shallow = await h.ok('list_files', { session_id, path: 'out', recursive: false });
    assert.deepEqual(
      shallow.entries.map((e: any) => [e.name, e.type, e.size]),
      [['result.txt', 'file', 2]],
    );
    assert.equal((await h.ok('execute_code', { session_id, code: 'open("notes/todo.md").read()' })).result, "'# todo'");
  });

  it('text and base64 round trips are byte-exact', async () => {
    const text = 'héllo wörld ✓\nline 2\n';
    await h.ok('write_file', { session_id, path: 'text.txt', content: text });
    assert.equal((await h.ok('read_file', { session_id, path: 'text.txt' })).content, text);
    const bytes = randomBytes(4096);
    await h.ok('write_file', { session_id, path: 'blob.bin', content: bytes.toString('base64'), encoding: 'base64' });
    const back = await h.ok('read_file', { session_id, path: 'blob.bin' });
    assert.equal(back.encoding, 'base64');
    assert.deepEqual(Buffer.from(back.content, 'base64'), bytes);
    const py = await h.ok('execute_code', {
      session_id,
      code: 'import hashlib\nhashlib.sha256(open("blob.bin", "rb").read()).hexdigest()',
    });
    const { createHash } = await import('node:crypto');
    assert.equal(py.result, `'${createHash('sha256').update(bytes).digest('hex')}'`);
    const page = await h.ok('read_file', { session_id, path: 'blob.bin', offset: 100, length: 50 });
    assert.deepEqual(Buffer.from(page.content, 'base64'), bytes.subarray(100, 150));
    assert.equal(page.truncated, true);
  });

  it('append-then-run_file runs a script written in pieces, in the session namespace', async () => {
    await h.ok('write_file', { session_id, path: 'job.py', content: 'total = 0\n' });
    await h.ok('write_file', { session_id, path: 'job.py', content: 'for i in range(5):\n    total += i\n', append: true });
    await h.ok('write_file', { session_id, path: 'job.py', content: 'print("total", total)\n', append: true });
    const run = await h.ok('run_file', { session_id, path: 'job.py' });
    assert.equal(run.stdout, 'total 10\n');
    assert.equal((await h.ok('execute_code', { session_id, code: 'total' })).result, '10');
    const exists = await h.call('write_file', { session_id, path: 'job.py', content: 'x' });
    assert.match(textOf(exists), /FILE_EXISTS: .*overwrite: true/);
    const missing = await h.call('run_file', { session_id, path: 'nope.py' });
    assert.match(textOf(missing), /FILE_NOT_FOUND/);
  });

  it('refuses traversal and symlink tricks and changes nothing', async () => {
    for (const path of ['../escape.txt', '/etc/passwd', 'a/../../b']) {
      const r = await h.call('write_file', { session_id, path, content: 'x' });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /PATH_DENIED/);
    }
    await h.ok('execute_code', { session_id, code: 'import os\nos.symlink("/lib", "liblink")' });
    const viaLink = await h.call('write_file', { session_id, path: 'liblink/evil.py', content: 'x' });
    assert.match(textOf(viaLink), /PATH_DENIED: .*symlink/);
    const py = await h.ok('execute_code', { session_id, code: 'import os\nos.path.exists("/lib/evil.py")' });
    assert.equal(py.result, 'False');
  });

  it('upload_file copies from allowed directories only and never credential files', async () => {
    const ok = await h.ok('upload_file', { session_id, host_path: join(hostDir, 'input.csv'), destination_path: 'data/input.csv' });
    assert.equal(ok.size, 12);
    const sum = await h.ok('execute_code', {
      session_id,
      code: 'import csv\nsum(int(r["y"]) for r in csv.DictReader(open("data/input.csv")))',
    });
    assert.equal(sum.result, '6');
    const env = await h.call('upload_file', { session_id, host_path: join(hostDir, '.env') });
    assert.match(textOf(env), /PATH_DENIED: .*credential/);
    const outside = await h.call('upload_file', { session_id, host_path: '/etc/hostname' });
    assert.match(textOf(outside), /PATH_DENIED: .*not inside an allowed directory/);
  });

  it('download_file writes into an allowed directory and never overwrites without overwrite: true', async () => {
    const target = join(hostDir, 'copy.txt');
    await h.ok('download_file', { session_id, path: 'text.txt', host_path: target });
    assert.equal(readFileSync(target, 'utf8'), 'héllo wörld ✓\nline 2\n');
    const again = await h.call('download_file', { session_id, path: 'out/result.txt', host_path: target });
    assert.match(textOf(again), /FILE_EXISTS/);
    assert.equal(readFileSync(target, 'utf8'), 'héllo wörld ✓\nline 2\n', 'not overwritten');
    await h.ok('download_file', { session_id, path: 'out/result.txt', host_path: target, overwrite: true });
    assert.equal(readFileSync(target, 'utf8'), '42');
    const outside = await h.call('download_file', { session_id, path: 'text.txt', host_path: join(tmpdir(), 'escape.txt') });
    assert.match(textOf(outside), /PATH_DENIED/);
  });

  it('quota overflow is refused without losing earlier files', async () => {
    await h.ok('write_file', { session_id, path: 'keep.txt', content: 'precious', overwrite: true });
    const big = await h.ok('execute_code', {
      session_id,
      code: 'f = open("huge.bin", "wb")\nfor _ in range(100):\n    f.write(b"x" * 100_000)',
    });
    assert.equal(big.success, false);
    assert.equal(big.error.type, 'OSError');
    assert.match(big.error.message, /file quota/);
    const tooBig = await h.call('write_file', {
      session_id,
      path: 'huge2.bin',
      content: Buffer.alloc(2_500_000).toString('base64'),
      encoding: 'base64',
    });
    assert.match(textOf(tooBig), /QUOTA_EXCEEDED: Not written: a file may hold at most 2000000 bytes/);
    const many = await h.ok('execute_code', { session_id, code: 'for i in range(100):\n    open(f"many_{i}.txt", "w").write("x")' });
    assert.equal(many.error?.type, 'OSError');
    assert.equal((await h.ok('read_file', { session_id, path: 'keep.txt' })).content, 'precious');
    await h.ok('execute_code', { session_id, code: 'import os, glob\nos.remove("huge.bin")\nfor p in glob.glob("many_*"): os.remove(p)' });
    const after = await h.ok('write_file', { session_id, path: 'after.txt', content: 'room again' });
    assert.equal(after.size, 10);
  });

  it('list_files answers while the session is busy', async () => {
    const slow = h.ok('execute_code', {
      session_id,
      code: 'import time\nt = time.time()\nwhile time.time() - t < 2: pass',
      timeout_seconds: 10,
    });
    await eventually(
      async () => (await h.ok('list_sessions')).sessions.some((s: any) => s.session_id === session_id && s.busy),
      2000,
      'busy',
    );
    const { entries } = await h.ok('list_files', { session_id });
    assert.ok(entries.length > 3);
    assert.ok(
      (await h.ok('list_sessions')).sessions.find((s: any) => s.session_id === session_id).busy,
      'still busy when listing answered',
    );
    await slow;
  });

  it('resources list live session files and vanish after close_session', async () => {
    const other = (await h.ok('execute_code', { code: 'open("mine.txt", "w").write("m")' })).session_id;
    const listed = await h.client.listResources();
    const uri = `session://${other}/mine.txt`;
    assert.ok(listed.resources.some((r) => r.uri === uri));
    const text = await h.client.readResource({ uri });
    assert.equal((text.contents[0] as { text: string }).text, 'm');
    await h.ok('close_session', { session_id: other });
    assert.ok(!(await h.client.listResources()).resources.some((r) => r.uri === uri));
    await assert.rejects(h.client.readResource({ uri }), /was closed/);
  });
});

describe('host file access rules over the real server', () => {
  const hostDir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-hostio-'));
  writeFileSync(join(hostDir, 'input.csv'), 'x,y\n1,2\n');
  const secret = `do-not-leak-${randomBytes(6).toString('hex')}`;

  it('without --allow-dir, upload_file and download_file are off and say which flag turns them on', async () => {
    // The server's working directory (this test's) is no longer allowed by default either.
    const h = await startServer(['--warm-sessions', '0'], {});
    try {
      const tools = await h.client.listTools();
      assert.match(
        tools.tools.find((t) => t.name === 'upload_file')!.description!,
        /host file access is off until the server is started with --allow-dir <dir>/,
      );
      const session_id = (await h.ok('create_session')).session_id;
      for (const host_path of ['/etc/hostname', join(hostDir, 'input.csv'), join(process.cwd(), 'package.json')]) {
        const up = await h.call('upload_file', { session_id, host_path });
        assert.match(textOf(up), /^PATH_DENIED: Host file access is off: .*--allow-dir <dir>/, host_path);
      }
      await h.ok('write_file', { session_id, path: 'out.txt', content: 'data' });
      const down = await h.call('download_file', { session_id, path: 'out.txt', host_path: join(hostDir, 'out.txt') });
      assert.match(textOf(down), /^PATH_DENIED: Host file access is off/);
      assert.equal(existsSync(join(hostDir, 'out.txt')), false);
      assert.deepEqual(
        (await h.ok('list_files', { session_id })).entries.map((e: any) => e.path),
        ['out.txt'],
        'nothing was copied in',
      );
    } finally {
      await h.close();
    }
  });

  it('with --allow-all-dirs, /proc, /sys and /dev stay refused (no secrets from /proc/self/environ) and regular files still copy', async () => {
    const h = await startServer(['--warm-sessions', '0', '--allow-all-dirs'], { PYODIDE_MCP_TEST_SECRET: secret });
    try {
      const session_id = (await h.ok('create_session')).session_id;
      for (const host_path of ['/proc/self/environ', '/proc/self/cmdline', '/dev/stdin', '/sys/kernel/uevent_seqnum']) {
        const up = await h.call('upload_file', { session_id, host_path, destination_path: 'stolen.txt' });
        assert.equal(up.isError, true, host_path);
        assert.match(textOf(up), /^PATH_DENIED: .*is under \/(proc|dev|sys), .*even with --allow-all-dirs/, host_path);
        assert.ok(!textOf(up).includes(secret));
      }
      const ls = await h.ok('list_files', { session_id });
      assert.deepEqual(ls.entries, [], 'nothing was copied in');
      await h.ok('write_file', { session_id, path: 'x.txt', content: 'data' });
      for (const host_path of ['/dev/null', '/proc/self/oom_score_adj']) {
        const down = await h.call('download_file', { session_id, path: 'x.txt', host_path, overwrite: true });
        assert.match(textOf(down), /^PATH_DENIED: .*is under \/(proc|dev)/, host_path);
      }
      // The legitimate use: a regular file anywhere, both ways.
      const up = await h.ok('upload_file', { session_id, host_path: join(hostDir, 'input.csv') });
      assert.equal(up.size, 8);
      await h.ok('download_file', { session_id, path: 'x.txt', host_path: join(hostDir, 'x.txt') });
      assert.equal(readFileSync(join(hostDir, 'x.txt'), 'utf8'), 'data');
    } finally {
      await h.close();
    }
  });
});
