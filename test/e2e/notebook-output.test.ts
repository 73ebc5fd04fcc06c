/**
 * What a notebook user expects of charts, errors and notebooks, over the real server with the SDK client: Plotly
 * figures saved as self-contained HTML files (legacy runtime, plotly 4.14 in its offline set), errors caused by the
 * sandbox's missing network, stdin, processes and browser saying what to do on both runtimes (and never taken for a
 * version gap by the legacy hint), and run_file of a .ipynb (cells in order, stop at an error, continue_on_error,
 * export_notebook's own notebooks).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startServer, textOf, type Harness } from '../helpers.js';
import { HTML_OUTPUT_NOTE } from '../../src/server/execution-fit.js';
import { KNOWN_PLOTLY_JS_SHA256, plotlyChartScript, scriptHashSource } from '../../src/view/plotly-scripts.js';

const NETWORK =
  /\nSandbox: this sandbox has no network, by design\. Bring files in with the upload_file or write_file tools, and packages with the install_packages tool\.$/;
const STDIN =
  /\nSandbox: there is no interactive input in this sandbox \(nothing can be typed into stdin\); pass the values in the code instead\.$/;
const PROCESSES = /\nSandbox: this sandbox cannot start processes or commands/;
const STAND_IN = /\nSandbox: [\w.]+ is a stand-in in this sandbox .*; this is not a version gap\.$/;
const THREADS = /\nSandbox: this sandbox has no threads .*asyncio, instead of threading or a ThreadPoolExecutor\.$/;
const MINUTES = 300;

/** The network and stdin cases every runtime answers alike: [code, error type, the added line]. */
const SANDBOX_ERRORS: [string, string, RegExp][] = [
  ["import urllib.request\nurllib.request.urlopen('https://example.com/data.csv')", 'URLError', NETWORK],
  ["import socket\nsocket.create_connection(('example.com', 80))", 'OSError', NETWORK],
  ["input('your name? ')", 'EOFError', STDIN],
  ['import sys\nsys.stdin.read()', 'EOFError', STDIN],
  ["import subprocess\nsubprocess.run(['ls'])", '', PROCESSES],
  ['import threading\nthreading.Thread(target=print).start()', 'RuntimeError', THREADS],
  [
    'from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor() as pool:\n    list(pool.map(abs, [-1, 2]))',
    'RuntimeError',
    THREADS,
  ],
];

async function assertSandboxErrors(run: (code: string) => Promise<any>, cases: [string, string, RegExp][]) {
  for (const [code, type, line] of cases) {
    const r = await run(code);
    assert.equal(r.success, false, code);
    if (type) assert.equal(r.error.type, type, code);
    assert.match(r.error.message, line, `${code}: ${r.error.message}`);
    assert.equal(r.error.message.split('\n').length, 2, `${code}: exactly one added line`);
    assert.doesNotMatch(r.error.message, /Hint:/, code);
  }
}

/** Every text block of a reply, and the largest block's size (HTML must never be inlined). */
function blocks(result: CallToolResult) {
  const texts = result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  return { texts, largest: Math.max(...result.content.map((c) => JSON.stringify(c).length)) };
}

describe('legacy runtime: Plotly charts as files, sandbox errors without the version hint', () => {
  let h: Harness;
  let session_id: string;
  before(async () => {
    // Room for three charts (about 3.5 MB each, plotly.js inlined) but not four: the quota applies to them.
    h = await startServer(['--runtime', 'legacy', '--max-session-bytes', '12000000']);
    session_id = (await h.ok('create_session')).session_id;
  });
  after(() => h.close());

  const call = (code: string) => h.call('execute_code', { session_id, code, timeout_seconds: MINUTES });
  const run = async (code: string) => (await call(code)).structuredContent as any;

  it('fig.show(), pio.show(fig) and a figure as the last value each save a self-contained HTML file, named, never inlined', async () => {
    const reply = await call(
      'import plotly.graph_objects as go\nimport plotly.io as pio\n' +
        "fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[4, 1, 7], name='trend'))\n" +
        'fig.show()\npio.show(fig)\nfig',
    );
    const r = reply.structuredContent as any;
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.equal(r.result, null, 'the chart is shown, not its repr');
    assert.deepEqual(
      r.display.map((d: any) => [d.mime_type, d.path]),
      [1, 2, 3].map((n) => ['text/html', `figures/cell${r.execution_count}_${n}.html`]),
    );
    for (const item of r.display) {
      const file = r.files.find((f: any) => f.path === item.path);
      assert.ok(file && file.size > 1_000_000, `${item.path} is listed in files with plotly.js inside (${file?.size} bytes)`);
    }
    const { texts, largest } = blocks(reply);
    assert.ok(largest < 50_000, `no block carries the HTML (largest ${largest} characters)`);
    assert.equal(texts.filter((t) => t === HTML_OUTPUT_NOTE).length, 1, 'the note that the model cannot see the chart, once');
    for (const item of r.display)
      assert.ok(
        texts.some((t) => t.startsWith('[text/html]') && t.includes(item.path)),
        item.path,
      );

    const head = await h.ok('read_file', { session_id, path: r.display[0].path, length: 4096 });
    assert.match(head.content, /<html>/);
    const page = await run(
      `html = open(${JSON.stringify(r.display[0].path)}).read()\n` +
        "import re\n('plotly.js v' in html, re.search(r'<script[^>]*\\ssrc=', html) is not None, 'trend' in html)",
    );
    // plotly.js itself names cdn.plot.ly (map topologies it fetches only for geo charts): no script is loaded from it.
    assert.equal(page.result, '(True, False, True)', 'plotly.js inlined, no script loaded from elsewhere, the figure inside');
    // Its scripts are the two the MCP App allows by hash (src/view/plotly-scripts.ts): the runtime's own plotly.js, and
    // the loader that draws the figure from its data block. (This pins the known bundle to the real package.)
    const hashes = await run(
      'import base64, hashlib\n' +
        "[base64.b64encode(hashlib.sha256(s.encode('utf-8')).digest()).decode() for s in re.findall(r'<script>(.*?)</script>', html, re.S)]",
    );
    const loader = scriptHashSource(plotlyChartScript()).slice("'sha256-".length, -1);
    assert.equal(hashes.result, `['${KNOWN_PLOTLY_JS_SHA256['plotly 4.14.3 (legacy runtime)']}', '${loader}']`);
  });

  it("charts count against the session's file quota like any write", async () => {
    const r = await run('fig.show()');
    assert.equal(r.success, false);
    assert.match(r.error.message, /file quota was reached/);
    await h.ok('execute_code', { session_id, code: "import shutil\nshutil.rmtree('figures')" });
    const again = await run('fig.show()');
    assert.equal(again.success, true, JSON.stringify(again.error));
    assert.equal(again.display.length, 1);
  });

  it("webbrowser answers as CPython's does without a browser", async () => {
    const r = await run(
      "import webbrowser\ntry:\n    webbrowser.get()\n    got = 'a browser'\nexcept webbrowser.Error:\n    got = 'Error'\n(webbrowser.open('https://example.com'), got)",
    );
    assert.equal(r.result, "(False, 'Error')");
  });

  it('network, stdin and process errors get one line saying what to do', async () => {
    await assertSandboxErrors(run, [
      ...SANDBOX_ERRORS,
      ["import http.client\nhttp.client.HTTPSConnection('example.com')", 'AttributeError', NETWORK],
      ["import pyodide\npyodide.open_url('https://example.com/data.csv')", 'ImportError', NETWORK],
    ]);
  });

  it("IPython's names work as in a notebook: display's classes, clear_output, get_ipython in a cell; libraries still see no IPython", async () => {
    // A loop that redraws its progress returns its last state only.
    const progress = await run(
      'from IPython.display import clear_output, display\nprint("start")\ndisplay(3)\nfor i in range(5):\n    clear_output(wait=True)\n    print("step", i)',
    );
    assert.equal(progress.stdout, 'step 4\n');
    assert.deepEqual(progress.display, []);
    const shown = await run(
      'import matplotlib.pyplot as plt\nplt.plot([1, 2]); plt.savefig("p.png"); plt.close()\n' +
        'from IPython.display import Image, SVG, Math, JSON, Code, Markdown\n' +
        'display(Image("p.png"), Image(filename="p.png"), SVG("<svg xmlns=\'http://www.w3.org/2000/svg\'/>"), Math("x^2"), JSON({"a": 1}), Code("x = 1", language="python"))',
    );
    assert.equal(shown.success, true, JSON.stringify(shown.error));
    assert.deepEqual(
      shown.display.map((d: { mime_type: string }) => d.mime_type),
      ['image/png', 'image/png', 'image/svg+xml', 'text/latex', 'text/markdown', 'text/markdown'],
    );
    const remote = await run('from IPython.display import Image\nImage(url="https://example.com/a.png")');
    assert.match(remote.error.message, /needs the network, which this sandbox has none of; pass data or a filename/);
    // `from IPython import get_ipython` (in a cell) gives the shell the % lines run in, and does not break them.
    const shell = await run('from IPython import get_ipython\nget_ipython().run_line_magic("pwd", "")');
    assert.equal(shell.result, "'/workspace'");
    assert.match((await run('len?')).stdout, /Return the number of items in a container/);
    // A library asking whether it runs in IPython (pandas' own probe calls get_ipython) is told it does not.
    const probe = await run('import pandas.io.formats.console as console\n(console.in_ipython_frontend(), get_ipython() is not None)');
    assert.equal(probe.result, '(False, True)');
    // Even after % lines ran: code whose file is a library's gets None, from the builtin and from IPython.
    const library = await run(
      'import IPython\nprobe = {}\nexec(compile("a = get_ipython()\\nb = IPython.get_ipython()", "/lib/python3.8/site-packages/some_lib.py", "exec"), {"IPython": IPython}, probe)\n(probe["a"], probe["b"])',
    );
    assert.equal(library.result, '(None, None)');
    // display(fig) shows a figure, also when the cell then closes it (the notebook idiom), and only once when not.
    for (const code of [
      'fig, ax = plt.subplots()\nax.plot([1, 2])\ndisplay(fig)\nplt.close(fig)',
      'fig, ax = plt.subplots()\nax.plot([2, 1])\ndisplay(fig)',
      'fig = plt.figure()\nplt.plot([1])\nfig',
    ]) {
      const shownFigure = await run(code);
      assert.deepEqual(
        shownFigure.display.map((d: { mime_type: string }) => d.mime_type),
        ['image/png'],
        code,
      );
      assert.equal(shownFigure.stdout, '', code);
    }
    const figure = await run('import matplotlib.pyplot as plt\nplt.plot([3, 1]); plt.show()');
    assert.deepEqual(
      figure.display.map((d: { mime_type: string }) => d.mime_type),
      ['image/png'],
    );
  });

  it('an offline package a library imports (not the cell): loaded after the failure, and the error says to run the cell again', async () => {
    // pandas' Styler imports jinja2 itself, so the cell's imports did not name it; on 0.17 jinja2 then needs
    // pkg_resources (setuptools), found the same way on the next run.
    const code = 'import pandas as pd\nlen(pd.DataFrame({"a": [1, 2]}).style.highlight_max()._repr_html_()) > 100';
    const loaded: string[] = [];
    let r = await run(code);
    for (let attempt = 0; attempt < 3 && !r.success; attempt++) {
      assert.match(
        r.error.message,
        /\nSandbox: [\w.]+ is in this runtime's offline set, but it loads when a cell's own code imports it, and here a library did: it is loaded now; run the cell again\.$/,
      );
      assert.equal(r.loaded_packages.length, 1, JSON.stringify(r));
      loaded.push(...r.loaded_packages);
      r = await run(code);
    }
    assert.equal(r.result, 'True', JSON.stringify(r.error));
    assert.ok(loaded.includes('Jinja2'), loaded.join());
    // A module that is nowhere offline gets no such line.
    assert.doesNotMatch((await run('import seaborn')).error.message, /Sandbox:/);
  });

  it("the version hint never fires for the sandbox's own stand-ins; it still does for a real version gap", async () => {
    await assertSandboxErrors(run, [
      ['import webbrowser\nwebbrowser.BackgroundBrowser', 'AttributeError', STAND_IN],
      ['from IPython.display import FileLink', 'ImportError', STAND_IN],
    ]);
    const gap = await run('import math\nmath.lcm(4, 6)');
    assert.match(gap.error.message, /\nHint: this server runs the legacy runtime/);
    assert.doesNotMatch(gap.error.message, /Sandbox:/);
    for (const code of ['1 / 0', 'undefined_name', "{}['key']"])
      assert.doesNotMatch((await run(code)).error.message, /Sandbox:|Hint:/, code);
  });
});

describe('modern runtime: sandbox errors, and .ipynb files run by run_file', () => {
  let h: Harness;
  let session_id: string;
  before(async () => {
    h = await startServer(['--runtime', 'modern', '--preload', 'none']);
    session_id = (await h.ok('create_session')).session_id;
  });
  after(() => h.close());

  const run = (code: string, session = session_id) => h.ok('execute_code', { session_id: session, code, timeout_seconds: MINUTES });

  it('network, stdin and process errors get one line saying what to do', async () => {
    await assertSandboxErrors(run, [
      ...SANDBOX_ERRORS,
      ["import http.client\nhttp.client.HTTPSConnection('example.com').request('GET', '/')", 'OSError', NETWORK],
      ["import pyodide.http\npyodide.http.open_url('https://example.com/data.csv')", 'NameError', NETWORK],
    ]);
    for (const code of ['1 / 0', "open('missing.csv')"]) assert.doesNotMatch((await run(code)).error.message, /Sandbox:/, code);
    const fed = await run("import sys, io\nsys.stdin = io.StringIO('7\\n')\nint(input())");
    assert.equal(fed.result, '7', 'a cell may still give input() its own stdin');
    const browser = await run("import webbrowser\nwebbrowser.open('https://example.com')");
    assert.equal(browser.result, 'False');
  });

  const notebook = (sources: (string | string[])[], markdownFirst = true) =>
    JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        ...(markdownFirst ? [{ cell_type: 'markdown', metadata: {}, source: ['# Analysis\n', 'Not code.'] }] : []),
        ...sources.map((source) => ({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source })),
      ],
    });

  it('runs the code cells in order, one cell each, and stops at the first error', async () => {
    const s = (await h.ok('create_session')).session_id;
    await h.ok('write_file', {
      session_id: s,
      path: 'analysis.ipynb',
      content: notebook([['total = 1\n', "print('first')"], '   ', 'total += 41\ntotal', '1 / 0', "print('after the error')"]),
    });
    const reply = await h.call('run_file', { session_id: s, path: 'analysis.ipynb', timeout_seconds: MINUTES });
    const r = reply.structuredContent as any;
    assert.equal(r.success, false);
    assert.equal(r.error.type, 'ZeroDivisionError');
    assert.equal(r.stdout, 'first\n');
    assert.deepEqual(
      r.notebook.cells.map((c: any) => [c.cell, c.execution_count, c.success, c.result]),
      [
        [1, 1, true, null],
        [3, 2, true, '42'],
        [4, 3, false, null],
      ],
    );
    assert.equal(r.notebook.code_cells, 5);
    assert.equal(r.notebook.not_run, 1);
    assert.equal(r.execution_count, 3);
    const text = textOf(reply);
    assert.match(
      text,
      /^notebook analysis\.ipynb: 5 code cells, 3 run, failed: cell \[4\]; 1 not run after the error \(pass continue_on_error: true/,
    );
    assert.match(text, /--- notebook cell \[3\] ---\n.*\nresult: 42/);
    assert.equal((await run('total', s)).result, '42', "the cells ran in the session's namespace");

    const all = await h.ok('run_file', { session_id: s, path: 'analysis.ipynb', continue_on_error: true, timeout_seconds: MINUTES });
    assert.equal(all.success, false);
    assert.equal(all.notebook.not_run, 0);
    assert.deepEqual(
      all.notebook.cells.map((c: any) => c.success),
      [true, true, false, true],
    );
    assert.equal(all.stdout, 'first\nafter the error\n');
    assert.equal(all.error.type, 'ZeroDivisionError', 'the first error stays the reply error');
  });

  it('a notebook written by export_notebook runs again through run_file with the same outputs', async () => {
    const s = (await h.ok('create_session')).session_id;
    const cells = ['values = [3, 1, 2]\nprint(sorted(values))', 'def double(x):\n    return 2 * x', 'double(sum(values))'];
    const first = [];
    for (const code of cells) first.push(await run(code, s));
    await h.ok('export_notebook', { session_id: s, path: 'exported.ipynb' });
    const { content } = await h.ok('read_file', { session_id: s, path: 'exported.ipynb' });
    const fresh = (await h.ok('create_session')).session_id;
    await h.ok('write_file', { session_id: fresh, path: 'exported.ipynb', content });
    const again = await h.ok('run_file', { session_id: fresh, path: 'exported.ipynb', timeout_seconds: MINUTES });
    assert.equal(again.success, true, JSON.stringify(again.error));
    assert.deepEqual(
      again.notebook.cells.map((c: any) => [c.stdout, c.result]),
      first.map((r: any) => [r.stdout, r.result]),
    );
  });

  it("a notebook's cells speak IPython syntax, and its %pip lines are installed (or refused) before any cell runs", async () => {
    const s = (await h.ok('create_session')).session_id;
    await h.ok('write_file', {
      session_id: s,
      path: 'magic.ipynb',
      content: notebook(['!echo hello > note.txt', 'lines = !cat note.txt\nlines'], false),
    });
    const ran = await h.ok('run_file', { session_id: s, path: 'magic.ipynb', timeout_seconds: MINUTES });
    assert.equal(ran.success, true, JSON.stringify(ran.error));
    assert.equal(ran.notebook.cells[1].result, "['hello']");
    await h.ok('write_file', {
      session_id: s,
      path: 'pip.ipynb',
      content: notebook(['marker = 1', '%pip install no-such-package-here'], false),
    });
    const refused = await h.call('run_file', { session_id: s, path: 'pip.ipynb' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /PACKAGE_UNAVAILABLE/);
    const names = (await h.ok('list_variables', { session_id: s })).variables.map((v: any) => v.name);
    assert.ok(!names.includes('marker'), 'no cell ran');
  });

  it('a file that is not an nbformat 4 notebook is refused before anything runs', async () => {
    const s = (await h.ok('create_session')).session_id;
    for (const [content, why] of [
      ['{"cells": ', /not JSON/],
      ['{"worksheets": []}', /nbformat 3/],
      ['{"cells": [{"cell_type": "code", "source": 7}]}', /cell 0 has a source/],
    ] as const) {
      await h.ok('write_file', { session_id: s, path: 'bad.ipynb', content, overwrite: true });
      const reply = await h.call('run_file', { session_id: s, path: 'bad.ipynb' });
      assert.equal(reply.isError, true);
      assert.match(textOf(reply), /INVALID_INPUT/);
      assert.match(textOf(reply), why);
    }
    assert.equal((await h.ok('list_variables', { session_id: s })).total, 0);
  });
});
