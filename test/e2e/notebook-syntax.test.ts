/**
 * IPython cell syntax in execute_code, over the real server and the SDK client, on both runtimes: line and cell
 * magics, `!` commands run by the sandbox over the session's files, `%pip` through install_packages' path (offline,
 * and with --allow-network from a loopback index), and what stays plain Python.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';
import { serveIndex, sha, wheel, type PypiIndex } from '../pypi-index.js';

interface Reply {
  success: boolean;
  stdout: string;
  stderr: string;
  result: string | null;
  error: { type: string; message: string; traceback: string } | null;
}

for (const runtime of ['legacy', 'modern'] as const) {
  describe(`IPython cell syntax (${runtime} runtime)`, () => {
    let h: Harness;
    let session_id: string;
    const run = async (code: string): Promise<Reply> => {
      const reply = await h.call('execute_code', { session_id, code });
      assert.ok(!reply.isError, textOf(reply));
      return reply.structuredContent as unknown as Reply;
    };
    const ok = async (code: string): Promise<Reply> => {
      const reply = await run(code);
      assert.equal(reply.success, true, JSON.stringify(reply.error));
      return reply;
    };

    before(async () => {
      // A small quota, for the quota cases below.
      h = await startServer(['--runtime', runtime, '--max-session-bytes', '300000', '--max-file-bytes', '200000']);
      session_id = (await h.ok('create_session')).session_id;
    });
    after(() => h.close());

    it('leaves % and ! in ordinary Python alone: operators, strings, multi-line strings, continuations', async () => {
      const reply = await ok(
        `x = 7 % 3\ns = '!ls'\nt = '%d%%' % x\nu = """\n%not_a_magic\n!not_a_command\nwhat?\n"""\n` +
          `v = (10\n% 3)\nw = 10 \\\n% 4\nprint(x, s, t, len(u.splitlines()), v, w, x != 2)`,
      );
      assert.equal(reply.stdout, '1 !ls 1% 4 1 2 True\n');
    });

    it('keeps traceback line numbers on the user lines, in the cell and inside a %%time body', async () => {
      const plain = await run('%pwd\n!echo hi\nx = 1\ny = undefined_name\n');
      assert.equal(plain.error?.type, 'NameError');
      assert.match(plain.error!.traceback, /line 4, in <module>\n\s+y = undefined_name/);
      assert.doesNotMatch(plain.error!.traceback, /pyodide_mcp_notebook/);
      const timed = await run('%%time\na = 1\nb = undefined_name\n');
      assert.match(timed.error!.traceback, /line 3, in <module>\n\s+b = undefined_name/);
      assert.doesNotMatch(timed.error!.traceback, /pyodide_mcp_notebook/);
    });

    it('%time, %%time and %timeit print in IPython format; %timeit honours -n and -r', async () => {
      const line = await ok('%time sum(range(1000))');
      assert.match(line.stdout, /^CPU times: user .+, sys: .+, total: .+\nWall time: \d.* (s|ms|μs|ns)\n$/);
      assert.equal(line.result, '499500');
      const cell = await ok('%%time\ny = 2\ny * 3');
      assert.match(cell.stdout, /Wall time:/);
      assert.equal(cell.result, '6');
      const timeit = await ok('%timeit -n 5 -r 3 sum(range(100))');
      assert.match(timeit.stdout, /^\d.* (s|ms|μs|ns) ± .+ per loop \(mean ± std\. dev\. of 3 runs, 5 loops each\)\n$/);
      const body = await ok('%%timeit -n 2 -r 1 z = 3\nz * 2');
      assert.match(body.stdout, /of 1 run, 2 loops each\)/);
    });

    it('%who, %whos, %reset -f, %env, %matplotlib inline, obj? and obj??', async () => {
      await ok('%reset -f');
      assert.equal((await ok('%who')).stdout, 'Interactive namespace is empty.\n');
      await ok('alpha = 123\nbeta = "test"\ngamma = [1, 2]');
      assert.equal((await ok('%who')).stdout, 'alpha\t beta\t gamma\t \n');
      assert.equal((await ok('%who int')).stdout, 'alpha\t \n');
      const whos = (await ok('%whos')).stdout.split('\n');
      assert.match(whos[0]!, /^Variable\s+Type\s+Data\/Info$/);
      assert.match(whos[2]!, /^alpha\s+int\s+123$/);
      assert.match(whos[4]!, /^gamma\s+list\s+n=2$/);
      await ok('%reset -f');
      assert.equal((await ok('%who')).stdout, 'Interactive namespace is empty.\n');
      const refused = await run('%reset');
      assert.match(refused.error!.message, /use %reset -f/);
      const env = await ok('%env MY_VAR=5\nimport os\nprint(os.environ["MY_VAR"])\n%env MY_VAR');
      assert.equal(env.stdout, 'env: MY_VAR=5\n5\n');
      assert.equal(env.result, "'5'");
      assert.equal((await ok('%matplotlib inline')).stdout, '');
      const help = await ok('len?');
      assert.match(help.stdout, /Signature: len\(obj, \/\)\nDocstring: Return the number of items in a container\./);
      await ok('def twice(x):\n    "Doubles."\n    return 2 * x');
      assert.match((await ok('twice??')).stdout, /Source:\s*\ndef twice\(x\):/);
    });

    it('%%writefile [-a], %run (as run_file), %cd and %pwd stay in the workspace', async () => {
      assert.equal((await ok('%%writefile script.py\nprint("hi from", __name__)\nfound = 41\n')).stdout, 'Writing script.py\n');
      assert.equal((await ok('%%writefile -a script.py\nfound += 1\n')).stdout, 'Appending to script.py\n');
      const ran = await ok('%run script.py\nfound');
      assert.equal(ran.stdout, 'hi from __main__\n');
      assert.equal(ran.result, '42');
      // run_file keeps .py files plain Python, as IPython's %run does.
      await ok('%%writefile plain.py\n%pwd\n');
      const plain = await h.ok('run_file', { session_id, path: 'plain.py' });
      assert.equal(plain.error?.type, 'SyntaxError');
      await ok('!mkdir -p sub');
      const cd = await ok('%cd sub\n%pwd');
      assert.equal(cd.result, "'/workspace/sub'");
      const outside = await run('%cd /etc');
      assert.equal(outside.success, false);
      assert.match(outside.error!.message, /outside the workspace/);
      assert.equal((await ok('%cd ..\nimport os\nos.getcwd()')).result, "'/workspace'");
    });

    it('an unknown magic and %load_ext are clear errors naming what is supported', async () => {
      const unknown = await run('%foo bar');
      assert.equal(unknown.error?.type, 'UsageError');
      assert.match(unknown.error!.message, /Line magic function `%foo` not found\. This sandbox supports: .*%pip.*%timeit/);
      const cell = await run('%%javascript\nalert(1)');
      assert.match(cell.error!.message, /Cell magic function `%%javascript` not found\. This sandbox supports: .*%%writefile/);
      const ext = await run('%load_ext line_profiler');
      assert.match(ext.error!.message, /extensions cannot be loaded in this sandbox/);
    });

    it("a notebook's set-up lines run (%load_ext autoreload, %autoreload 2, %config); a workspace module imports and reloads when its file changes", async () => {
      await ok('%load_ext autoreload\n%autoreload 2\n%config InlineBackend.figure_format = "retina"\n%config Completer.use_jedi = False');
      // Written, then imported in the same cell (on 0.17 the directory's time does not change: environment.py).
      assert.equal(
        (await ok('open("helper_mod.py", "w").write("def f():\\n    return 1\\n")\nimport helper_mod\nhelper_mod.f()')).result,
        '1',
      );
      await ok('%%writefile helper_mod.py\ndef f():\n    return 2\n');
      assert.equal((await ok('helper_mod.f()')).result, '2', 'reloaded before the cell');
      await ok('%%writefile helper_mod.py\ndef f(:\n');
      const broken = await ok('helper_mod.f()');
      assert.equal(broken.result, '2', 'the module as it was');
      assert.match(broken.stderr, /^\[autoreload of helper_mod failed: [\s\S]*SyntaxError[\s\S]*\]\n$/);
      await ok('%autoreload 0');
      await ok('%%writefile helper_mod.py\ndef f():\n    return 3\n');
      assert.equal((await ok('helper_mod.f()')).result, '2', 'not reloaded while off');
      assert.equal((await ok('%autoreload\nhelper_mod.f()')).result, '3', '%autoreload alone reloads now');
      const bad = await run('%autoreload 7');
      assert.equal(bad.error?.type, 'UsageError');
    });

    it('scripts run as in Jupyter: __name__ is "__main__", sys.exit(0) ends run_file and %run as a success, os.system runs the sandbox\'s commands', async () => {
      assert.equal((await ok('if __name__ == "__main__":\n    print("main ran")')).stdout, 'main ran\n');
      // The session's set-up (environment.py) still names our matplotlib backend on both runtimes.
      assert.equal((await ok('import os\nos.environ["MPLBACKEND"]')).result, "'module://pyodide_mcp_backend'");
      // pickle finds a class defined in a cell through __main__ (Pyodide 0.17 named the module "builtins").
      assert.equal((await ok('import pickle\nclass Point:\n    x = 3\npickle.loads(pickle.dumps(Point())).x')).result, '3');
      await ok(
        '%%writefile cli.py\nimport sys\ndef main():\n    print("ran")\n    return 0\nif __name__ == "__main__":\n    sys.exit(main())\n',
      );
      await ok('%%writefile failing.py\nimport sys\nsys.exit(3)\n');
      const script = await h.ok('run_file', { session_id, path: 'cli.py' });
      assert.equal(script.success, true, JSON.stringify(script.error));
      assert.equal(script.stdout, 'ran\n');
      assert.equal((await ok('%run cli.py')).stdout, 'ran\n');
      const failing = await h.ok('run_file', { session_id, path: 'failing.py' });
      assert.equal(failing.error?.type, 'SystemExit');
      assert.equal(failing.error?.message, '3');
      assert.equal((await run('%run failing.py')).error?.type, 'SystemExit');
      assert.equal((await run('import sys\nsys.exit(0)')).error?.type, 'SystemExit', 'in a cell it is reported, as in IPython');
      // os.system: the command line as a ! line runs it; the status in os.system's encoding.
      const system = await ok('import os\n(os.system("echo hi && echo there > note.txt"), os.system("false"), open("note.txt").read())');
      assert.equal(system.stdout, 'hi\n');
      assert.equal(system.result, "(0, 256, 'there\\n')");
      const missing = await ok('os.system("gcc x.c")');
      assert.equal(missing.result, String(127 << 8));
      assert.match(missing.stderr, /^gcc: not available: this sandbox runs no processes/);
    });

    it('%%html, %%markdown, %%latex and %%svg show their body as that output', async () => {
      const kinds: [string, string][] = [
        ['html', 'text/html'],
        ['markdown', 'text/markdown'],
        ['latex', 'text/latex'],
        ['svg', 'image/svg+xml'],
      ];
      for (const [magic, mime] of kinds) {
        const body = magic === 'svg' ? "<svg xmlns='http://www.w3.org/2000/svg'/>" : '<b>x</b> $x^2$';
        const reply = await h.ok('execute_code', { session_id, code: `%%${magic}\n${body}` });
        assert.deepEqual(
          reply.display.map((d: { mime_type: string }) => d.mime_type),
          [mime],
          magic,
        );
      }
    });

    it('! commands over the session files: ls, cat, head, tail, wc, echo with > and >>, pipes, && ; ||', async () => {
      await ok('!rm -rf play && mkdir -p play/deep && echo a,b > play/x.csv && echo 1,2 >> play/x.csv && echo 3,4 >> play/x.csv');
      assert.equal((await ok('!cat play/x.csv')).stdout, 'a,b\n1,2\n3,4\n');
      assert.equal((await ok('!head -n 1 play/x.csv; tail -n 1 play/x.csv')).stdout, 'a,b\n3,4\n');
      assert.equal((await ok('!wc -l play/x.csv')).stdout, '3 play/x.csv\n');
      assert.equal((await ok('!cat play/x.csv | grep -c ,')).stdout, '3\n');
      assert.equal((await ok('!ls play')).stdout, 'deep\nx.csv\n');
      assert.match((await ok('!ls -la play')).stdout, /^total \d+\ndrwx.* \.\n.* \.\.\ndrwx.* deep\n-rw.* 12 .* x\.csv\n$/);
      assert.match((await ok('!ls -lh play/x.csv')).stdout, /^-rw.* 12 .* play\/x\.csv\n$/);
      assert.equal((await ok('!ls -R play')).stdout, 'play:\ndeep\nx.csv\n\nplay/deep:\n');
      assert.equal((await ok('!false && echo no; echo yes || echo never; false || echo fallback')).stdout, 'yes\nfallback\n');
      assert.equal((await ok('!pwd')).stdout, '/workspace\n');
      // As in IPython, `!cd` lasts for its own line only.
      const sub = await ok('!cd play && ls\n!pwd');
      assert.equal(sub.stdout, 'deep\nx.csv\n/workspace\n');
    });

    it('! commands that change files: mkdir -p, cp -r, mv, touch, rm -r -f; find, grep, du; x = !cmd', async () => {
      await ok('!rm -rf tree && mkdir -p tree/a/b && touch tree/a/b/empty.txt && echo Hello World > tree/a/hello.txt');
      await ok('!cp -r tree copy && mv copy/a/hello.txt copy/moved.txt');
      assert.equal((await ok('!find copy')).stdout, 'copy\ncopy/a\ncopy/a/b\ncopy/a/b/empty.txt\ncopy/moved.txt\n');
      assert.equal((await ok('!find . -name "*.txt" -type f | grep -i moved')).stdout, './copy/moved.txt\n');
      assert.equal((await ok('!grep -i -n -r hello tree')).stdout, 'tree/a/hello.txt:1:Hello World\n');
      assert.match((await ok('!du -sh tree')).stdout, /^\d+(\.\d)?[KM]?\ttree\n$/);
      const captured = await ok('found = !ls copy\nprint(found, found.n == "a\\nmoved.txt", type(found).__name__)');
      assert.equal(captured.stdout, "['a', 'moved.txt'] True SList\n");
      const failed = await ok('!rm copy\n!rm -r copy; rm -f nothing\n!ls copy\nprint(_exit_code)');
      assert.equal(failed.stderr, "rm: cannot remove 'copy': Is a directory\nls: cannot access 'copy': No such file or directory\n");
      assert.equal(failed.stdout, '2\n');
      assert.equal((await ok('!grep nomatch tree/a/hello.txt\nprint(_exit_code)')).stdout, '1\n');
    });

    it('unzip and tar of archives in the workspace', async () => {
      await ok("import zipfile\nwith zipfile.ZipFile('z.zip', 'w') as z:\n    z.writestr('inner/f.txt', 'zipped\\n')");
      const unzipped = await ok('!unzip -o z.zip && cat inner/f.txt');
      assert.equal(unzipped.stdout, 'Archive:  z.zip\n  inflating: inner/f.txt\nzipped\n');
      await ok('!tar -czf t.tgz inner && rm -r inner && mkdir out && tar -xzf t.tgz -C out');
      assert.equal((await ok('!tar -tf t.tgz && cat out/inner/f.txt')).stdout, 'inner\ninner/f.txt\nzipped\n');
      await ok("with zipfile.ZipFile('evil.zip', 'w') as z:\n    z.writestr('../../etc/evil.txt', 'x')");
      const evil = await ok('!unzip evil.zip\nimport os\nprint(_exit_code, os.path.exists("/etc/evil.txt"))');
      assert.match(evil.stderr, /refusing member '\.\.\/\.\.\/etc\/evil\.txt'/);
      assert.equal(evil.stdout.split('\n').at(-2), '1 False');
    });

    it('refuses paths outside the workspace and commands that do not exist here, with what to use instead', async () => {
      const outside = await ok('!cat /etc/passwd\n!cp ../lib/x .\n!ls /\nprint(_exit_code)');
      assert.match(outside.stderr, /^cat: \/etc\/passwd: outside the workspace \(\/workspace\)/m);
      assert.match(outside.stderr, /^cp: \.\.\/lib\/x: outside the workspace/m);
      assert.match(outside.stderr, /^ls: \/: outside the workspace/m);
      assert.equal(outside.stdout, '1\n');
      const gcc = await ok('!gcc x.c\nprint(_exit_code)');
      assert.match(gcc.stderr, /^gcc: not available: this sandbox runs no processes and has no network \(WebAssembly\)/);
      assert.equal(gcc.stdout, '127\n');
      assert.match((await ok('!python script.py')).stderr, /python: not available: .*%run file\.py/);
      assert.match((await ok('!curl https://example.com')).stderr, /curl: not available: .*upload_file/);
      assert.match((await ok('!apt-get install gcc')).stderr, /apt-get: not available: .*%pip install/);
    });

    it('the file quota applies to !cp and !echo > as to Python writes', async () => {
      await ok('!rm -rf play tree copy out z.zip t.tgz evil.zip\nopen("big.bin", "wb").write(b"x" * 160000)');
      const copied = await ok('!cp big.bin big2.bin\nprint(_exit_code)');
      assert.match(copied.stderr, /^cp: .*quota/m);
      assert.equal(copied.stdout, '1\n');
      const echoed = await ok('blob = "y" * 190000\n!echo {blob} > blob.txt\nprint(_exit_code)');
      assert.match(echoed.stderr, /^echo: .*quota/m);
      assert.equal(echoed.stdout, '1\n');
      await ok('!rm -f big.bin big2.bin blob.txt');
    });

    it('%pip: a name outside the offline set is refused as by install_packages, with close matches; nothing runs', async () => {
      const refused = await h.call('execute_code', { session_id, code: '%pip install scikitlearn\nprint("ran")' });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /PACKAGE_UNAVAILABLE: Not available offline: scikitlearn.*Nothing was installed/);
      const tool = await h.call('install_packages', { session_id, packages: ['scikitlearn'] });
      assert.equal(textOf(refused), textOf(tool));
      const options = await ok('%pip install -r requirements.txt');
      assert.match(options.stderr, /pip install -r is not supported in this sandbox/);
      assert.match((await ok('%pip uninstall x')).stderr, /pip uninstall is not possible/);
    });

    if (runtime === 'legacy') {
      it('%pip install and !pip install load offline packages, in pip words', async () => {
        const installed = await ok('%pip install pyparsing\nimport pyparsing\npyparsing.__version__');
        assert.match(installed.stdout, /^Successfully installed pyparsing-\d+\.\d+\.\d+\n$/);
        const again = await ok('!pip install pyparsing');
        assert.match(again.stdout, /^Requirement already satisfied: pyparsing in \S+ \(\d+\.\d+\.\d+\)\n$/);
        assert.match((await ok('%pip show pyparsing')).stdout, /^Name: pyparsing\nVersion: .+\nSummary: .+\nLocation: .+\nRequires: ?\n$/);
        assert.match((await ok('%pip list')).stdout, /^Package\s+Version\n-+ -+\n(.*\n)*pyparsing\s+\d/);
      });
    }
  });

  describe(`%pip install with --allow-network (${runtime} runtime)`, () => {
    let index: PypiIndex;
    let h: Harness;
    const files = { 'nb_hello-1.0-py3-none-any.whl': wheel('nb_hello', '1.0', 'GREETING = "hello from the index"\n') };
    const releases = {
      'nb-hello': {
        info: { name: 'nb-hello', version: '1.0', requires_dist: null },
        urls: [
          {
            filename: 'nb_hello-1.0-py3-none-any.whl',
            url: '/files/nb_hello-1.0-py3-none-any.whl',
            packagetype: 'bdist_wheel',
            digests: { sha256: sha(files['nb_hello-1.0-py3-none-any.whl']) },
          },
        ],
      },
    };
    before(async () => {
      index = await serveIndex(releases, files);
      h = await startServer(['--runtime', runtime, '--allow-network', '--index-url', index.url]);
    });
    after(async () => {
      await h.close();
      index.close();
    });

    it('the server fetches and verifies the wheel before the cell runs; the cell reports it as pip does', async () => {
      const reply = (await h.ok('execute_code', { code: '!pip install -q nb-hello==1.0\nimport nb_hello\nnb_hello.GREETING' })) as Reply;
      assert.equal(reply.success, true, JSON.stringify(reply.error));
      assert.equal(reply.stdout, 'Successfully installed nb_hello-1.0\n');
      assert.equal(reply.result, "'hello from the index'");
      assert.ok(index.requests.includes('/pypi/nb-hello/json'));
      const live = (await h.ok('list_sessions')).sessions.length;
      const missing = await h.call('execute_code', { code: '%pip install no-such-package' });
      assert.match(textOf(missing), /not found on the index/);
      // The session started for that call is closed again: the refusal carries no id to reach it by.
      assert.equal((await h.ok('list_sessions')).sessions.length, live);
    });
  });
}
