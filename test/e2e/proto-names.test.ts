/**
 * Workspace files whose names are properties of a JavaScript object (`__proto__`, `hasOwnProperty`, `constructor`,
 * MEMFS node fields) are ordinary files in both runtimes: listed, mirrored, readable by the tools, removable, and a
 * directory that held one can be removed again (workers/thread/memfs-directories.ts). Over real stdio.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

for (const runtime of ['legacy', 'modern'] as const) {
  describe(`file names that are JavaScript property names (${runtime} runtime)`, () => {
    let h: Harness;
    let attacker: string;
    let bystander: string;
    before(async () => {
      h = await startServer(['--runtime', runtime, '--max-session-bytes', '3000000', '--max-file-bytes', '2000000']);
      [attacker, bystander] = await Promise.all([
        h.ok('create_session').then((r) => r.session_id as string),
        h.ok('create_session').then((r) => r.session_id as string),
      ]);
      await h.ok('write_file', { session_id: bystander, path: 'mine.txt', content: 'bystander' });
    });
    after(() => h.close());

    const run = async (session_id: string, code: string) => {
      const reply = (await h.call('execute_code', { session_id, code })).structuredContent as any;
      assert.equal(reply.success, true, JSON.stringify(reply.error));
      return reply;
    };

    it('Python creates, lists, mirrors and removes them like any other file', async () => {
      const names = ['__proto__', 'hasOwnProperty', 'constructor', 'toString', 'valueOf', 'parent', 'contents', 'mode'];
      const reply = await run(
        attacker,
        `import os, json\nnames = ${JSON.stringify(names)}\n` +
          `for n in names:\n    open('/workspace/' + n, 'w').write(n)\n` +
          `os.mkdir('/workspace/d'); os.mkdir('/workspace/d/__proto__'); open('/workspace/d/__proto__/x', 'w').write('x')\n` +
          `print(json.dumps([sorted(os.listdir('/workspace')), os.listdir('/workspace/d'), os.path.isdir('/workspace/d/__proto__'), os.stat('/workspace/__proto__').st_size]))`,
      );
      const [listing, sub, isDir, size] = JSON.parse(reply.stdout);
      assert.deepEqual(listing, [...names, 'd'].sort());
      assert.deepEqual(sub, ['__proto__']);
      assert.equal(isDir, true);
      assert.equal(size, '__proto__'.length);
      const mirrored = reply.files.map((f: any) => f.path).sort();
      assert.deepEqual(mirrored, [...names, 'd/__proto__/x'].sort());

      // Removed again: the directory that held `__proto__` is empty afterwards (before, it stayed ENOTEMPTY forever).
      const removed = await run(
        attacker,
        `import os\nos.unlink('/workspace/d/__proto__/x'); os.rmdir('/workspace/d/__proto__'); os.rmdir('/workspace/d')\n` +
          `os.mkdir('/workspace/e'); open('/workspace/e/__proto__', 'wb').write(b'z' * 1000); os.unlink('/workspace/e/__proto__'); os.rmdir('/workspace/e')\n` +
          `print(os.path.exists('/workspace/d'), os.path.exists('/workspace/e'))`,
      );
      assert.equal(removed.stdout, 'False False\n');
      assert.deepEqual(removed.files.map((f: any) => f.path).sort(), []);
    });

    it('the file tools read, write, list and delete `__proto__`', async () => {
      assert.equal(textOf(await h.call('read_file', { session_id: attacker, path: '__proto__' })), '__proto__');
      await h.ok('write_file', { session_id: attacker, path: '__proto__', content: 'replaced', overwrite: true });
      await h.ok('write_file', { session_id: attacker, path: 'sub/__proto__', content: 'nested' });
      assert.equal(textOf(await h.call('read_file', { session_id: attacker, path: 'sub/__proto__' })), 'nested');
      const listing = textOf(await h.call('list_files', { session_id: attacker, recursive: true }));
      assert.match(listing, /\b8 {2}__proto__$/m);
      assert.match(listing, /sub\/__proto__$/m);
      const seen = await run(attacker, `print(open('/workspace/__proto__').read(), open('/workspace/sub/__proto__').read())`);
      assert.equal(seen.stdout, 'replaced nested\n');
      await h.ok('delete_file', { session_id: attacker, path: 'sub/__proto__' });
      const gone = await run(attacker, `import os\nos.rmdir('/workspace/sub'); print(sorted(os.listdir('/workspace'))[:2])`);
      assert.equal(gone.stdout, "['__proto__', 'constructor']\n");
    });

    it('a bystander session is unharmed', async () => {
      const reply = await run(bystander, `import os\nprint(sorted(os.listdir('/workspace')), open('/workspace/mine.txt').read())`);
      assert.equal(reply.stdout, "['mine.txt'] bystander\n");
      assert.equal(textOf(await h.call('read_file', { session_id: bystander, path: 'mine.txt' })), 'bystander');
    });
  });
}
