// The browser view of pyodide-mcp (docs/view.md): the sessions list at /view, a live notebook at /view/<session>.
// Plain JavaScript, no framework, no network beyond this server. Security: every string that came from a session
// enters the DOM as text (textContent), never as HTML; HTML outputs are shown only in <iframe sandbox> frames whose
// documents the server serves with a sandbox CSP of their own (src/view/view-server.ts).

const BASE = '/view';
const body = document.body;
const sessionId = body.dataset.session ?? null;
const control = body.dataset.control === '1';

/** An element with a class and children (strings become text nodes: never parsed as HTML). */
function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function api(path) {
  return `${BASE}/api/${encodeURIComponent(sessionId)}/${path}`;
}

async function getJson(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${response.status} ${(await response.text()).trim()}`);
  return response.json();
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString();
}

function megabytes(bytes) {
  return bytes === null || bytes === undefined ? '' : ` · ${Math.round(bytes / 2 ** 20)} MB`;
}

function seconds(ms) {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

// ---- Python highlighting: a small tokenizer, rendered as spans of text ----

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case'.split(
    ' ',
  ),
);
const TOKEN =
  /(#[^\n]*)|([rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|$)|"""[\s\S]*?(?:"""|$)|'(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?))|(\b\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?\b)|([A-Za-z_][A-Za-z0-9_]*)|(^\s*[%!][^\n]*)/gm;

function highlight(source) {
  const pre = el('pre', 'code');
  let at = 0;
  let previous = '';
  for (const match of source.matchAll(TOKEN)) {
    if (match.index > at) pre.append(source.slice(at, match.index));
    const [text, comment, string, number, name, magic] = match;
    let kind = null;
    if (comment) kind = 'tok-comment';
    else if (string) kind = 'tok-string';
    else if (number) kind = 'tok-number';
    else if (magic) kind = 'tok-magic';
    else if (name && KEYWORDS.has(name)) kind = 'tok-keyword';
    else if (name && (previous === 'def' || previous === 'class')) kind = 'tok-def';
    pre.append(kind ? el('span', kind, text) : text);
    if (name) previous = name;
    at = match.index + text.length;
  }
  if (at < source.length) pre.append(source.slice(at));
  return pre;
}

// ---- the sessions list ----

async function sessionsPage() {
  document.title = 'Sessions · pyodide-mcp';
  const list = el('div', 'sessions');
  const status = el('p', 'muted', 'Loading…');
  body.append(el('header', 'bar', el('h1', null, 'pyodide-mcp sessions')), el('main', 'list', status, list));
  const refresh = async () => {
    try {
      const { sessions } = await getJson(`${BASE}/api/sessions`);
      status.textContent = sessions.length === 0 ? 'No sessions yet: they appear here as soon as an agent creates one.' : '';
      list.replaceChildren(
        ...sessions.map((s) => {
          const link = el('a', 'session-link', s.session_id);
          link.href = `${BASE}/${encodeURIComponent(s.session_id)}`;
          const state = s.ended ? 'ended' : s.busy ? 'running' : 'idle';
          return el(
            'div',
            `session-row ${state}`,
            link,
            el('span', `badge ${state}`, state),
            el(
              'span',
              'muted',
              `${s.cells} cell${s.cells === 1 ? '' : 's'} · created ${clock(s.created_at)} · last ${clock(s.last_at)}${megabytes(s.memory_bytes)}`,
            ),
            s.last_source ? el('code', 'last-source', s.last_source.split('\n')[0]) : null,
          );
        }),
      );
    } catch (error) {
      status.textContent = `Cannot list sessions: ${error.message}`;
    }
  };
  await refresh();
  setInterval(refresh, 2000);
}

// ---- one notebook ----

function notebookPage() {
  document.title = `Session ${sessionId.slice(0, 12)} · pyodide-mcp`;
  const state = el('span', 'badge idle', 'connecting');
  const memory = el('span', 'muted memory');
  const follow = el('input');
  follow.type = 'checkbox';
  follow.checked = true;
  follow.id = 'follow';
  const followLabel = el('label', 'follow', follow, ' follow the latest cell');
  followLabel.htmlFor = 'follow';
  const download = el('a', 'button', 'Download .ipynb');
  download.href = api('notebook.ipynb');
  download.setAttribute('download', '');
  const back = el('a', 'button', '← sessions');
  back.href = BASE;
  const interrupt = control ? el('button', 'button danger', 'Interrupt') : null;
  const cells = el('main', 'cells');
  const note = el('p', 'muted note');
  const side = sidePanel();
  body.append(
    el('header', 'bar', back, el('h1', null, 'Session ', el('code', null, sessionId)), state, memory, followLabel, download, interrupt),
    el('div', 'layout', el('div', 'notebook', note, cells), side.node),
  );

  /** Cells by their number; the server's clock minus ours (elapsed times are the server's). */
  const byNumber = new Map();
  let offset = 0;
  let lastSeq = 0;
  let running = null;

  if (interrupt) {
    interrupt.addEventListener('click', async () => {
      interrupt.disabled = true;
      try {
        await fetch(api('interrupt'), { method: 'POST', credentials: 'same-origin' });
      } finally {
        setTimeout(() => (interrupt.disabled = false), 500);
      }
    });
  }

  const setState = (text, kind) => {
    state.textContent = text;
    state.className = `badge ${kind}`;
  };

  const cellNode = (event) => {
    const prompt = el('div', 'prompt', 'In [ ]:');
    const meta = el('div', 'meta', `${event.tool} · ${clock(event.at)}`);
    const outputs = el('div', 'outputs');
    const node = el('section', 'cell running', el('div', 'input', prompt, highlight(event.source)), meta, outputs);
    node.dataset.cell = String(event.cell);
    return { node, prompt, meta, outputs, started: event.at, timeout: event.timeout_ms, tool: event.tool, live: null };
  };

  /** A piece of a running cell's output, appended as text; the cell's final outputs replace them when it finishes. */
  const streamed = (cell, event) => {
    const live = (cell.live ??= { next: 0, stdout: null, stderr: null });
    if (event.chunk < live.next) return; // already shown (a reconnect sends the cell's kept pieces again)
    if (event.chunk > live.next && live.next === 0) cell.outputs.append(el('p', 'muted', 'earlier output of this cell was not kept'));
    live.next = event.chunk + 1;
    const stream = event.stream === 'stderr' ? 'stderr' : 'stdout';
    if (!live[stream]) cell.outputs.append((live[stream] = el('pre', `stream ${stream} live`)));
    appendStreamed(live[stream], event.text);
  };

  /**
   * Appends streamed text as a terminal and Jupyter show it: after a carriage return, the next text other than a line
   * end replaces the current line (a progress bar redrawn in place), the rule the session's streams apply to the
   * finished cell's output (workers/python/streams.py).
   */
  const appendStreamed = (pre, text) => {
    if (!text.includes('\r') && pre.dataset.returned !== '1') {
      pre.append(text);
      return;
    }
    let content = pre.textContent;
    let returned = pre.dataset.returned === '1';
    text.split('\r').forEach((segment, index) => {
      if (index) returned = true;
      if (!segment) return;
      if (returned && segment[0] !== '\n') content = content.slice(0, content.lastIndexOf('\n') + 1);
      returned = false;
      content += segment;
    });
    pre.textContent = content;
    pre.dataset.returned = returned ? '1' : '';
  };

  const finish = (cell, event) => {
    const { outcome } = event;
    cell.node.classList.remove('running');
    cell.prompt.textContent = `In [${outcome.execution_count}]:`;
    const how = event.terminated ? 'session ended' : event.interrupted ? `interrupted (${event.interrupted})` : 'done';
    cell.meta.textContent = `${cell.tool} · ${clock(cell.started)} · ${how} in ${seconds(event.duration_ms)}`;
    if (event.terminated || outcome.error) cell.node.classList.add('failed');
    const out = cell.outputs;
    out.replaceChildren(); // the output streamed while it ran: the finished cell's is whole
    cell.live = null;
    if (outcome.stdout) out.append(el('pre', 'stream stdout', outcome.stdout));
    if (outcome.stderr) out.append(el('pre', 'stream stderr', outcome.stderr));
    outcome.display.forEach((item, index) => out.append(displayNode(item, event.seq, index)));
    if (outcome.result !== null) {
      // A value with HTML of its own (a DataFrame's table) is shown as a notebook shows it: in a sandboxed frame.
      const shown = outcome.result_html ? htmlFrame(`${api('html')}?seq=${event.seq}&item=result`, '') : el('pre', null, outcome.result);
      out.append(el('div', 'result', el('div', 'prompt out', `Out[${outcome.execution_count}]:`), shown));
    }
    if (outcome.error) {
      const { type, message, traceback } = outcome.error;
      out.append(el('pre', 'error', el('strong', null, `${type}: ${message}`), traceback ? `\n${traceback}` : null));
    }
    if (event.terminated) out.append(el('pre', 'error', event.terminated));
    if (event.elided) out.append(el('p', 'muted', event.elided));
    if (event.packages?.length > 0) out.append(el('div', 'files', `packages loaded: ${event.packages.join(', ')}`));
    if (event.files.length > 0) {
      out.append(
        el(
          'div',
          'files',
          'files: ',
          ...event.files.flatMap((path, i) => {
            const link = el('a', null, path);
            link.href = `${api('file')}?download=1&path=${encodeURIComponent(path)}`;
            return i === 0 ? [link] : [', ', link];
          }),
        ),
      );
    }
  };

  /** Security: session HTML only in a sandboxed frame (opaque origin); its document carries a sandbox CSP too. */
  const htmlFrame = (src, sandbox, extraClass) => {
    const frame = el('iframe', extraClass ? `html-frame ${extraClass}` : 'html-frame');
    frame.setAttribute('sandbox', sandbox);
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.src = src;
    return frame;
  };

  const displayNode = (item, seq, index) => {
    const fileUrl = (extra) => `${api('file')}?path=${encodeURIComponent(item.path)}${extra}`;
    if (item.path !== undefined && item.mime_type.startsWith('image/')) {
      const img = el('img', 'figure');
      img.alt = item.path;
      img.src = fileUrl('');
      return img;
    }
    if (item.mime_type === 'text/html') {
      return item.path !== undefined
        ? htmlFrame(fileUrl('&frame=1'), 'allow-scripts', 'chart')
        : htmlFrame(`${api('html')}?seq=${seq}&item=${index}`, '');
    }
    if (item.text !== undefined) return el('pre', 'display', item.text);
    const link = el('a', null, item.path);
    link.href = fileUrl('&download=1');
    return el('div', 'display', `${item.mime_type}: `, link);
  };

  const onEvent = (event) => {
    if (event.kind === 'meta') {
      offset = event.now - Date.now();
      note.textContent = event.dropped > 0 ? `${event.dropped} earlier events are not kept (the server keeps the last ones).` : '';
      return;
    }
    if (event.kind === 'cell_output') {
      const cell = byNumber.get(event.cell);
      if (cell && cell === running) {
        streamed(cell, event);
        if (follow.checked) cell.node.scrollIntoView({ block: 'end' });
      }
      return;
    }
    if (event.seq <= lastSeq) return;
    lastSeq = event.seq;
    if (event.kind === 'session') {
      const kinds = { created: 'idle', restored: 'idle', reset: 'idle', closed: 'ended', expired: 'ended', ended: 'ended' };
      setState(
        event.state === 'reset' ? 'idle' : event.state === 'created' || event.state === 'restored' ? 'idle' : event.state,
        kinds[event.state],
      );
      cells.append(el('div', 'session-event', `${clock(event.at)} · session ${event.state}${event.reason ? `: ${event.reason}` : ''}`));
      return;
    }
    if (event.kind === 'files' || event.kind === 'packages') {
      const what =
        event.kind === 'files'
          ? [
              event.written.length > 0 ? `files written: ${event.written.join(', ')}` : '',
              event.deleted.length > 0 ? `deleted: ${event.deleted.join(', ')}` : '',
            ]
          : [
              event.loaded.length > 0 ? `packages loaded: ${event.loaded.join(', ')}` : '',
              event.failed.length > 0 ? `failed: ${event.failed.join(', ')}` : '',
            ];
      cells.append(el('div', 'session-event', `${clock(event.at)} · ${what.filter(Boolean).join(' · ')}`));
      if (event.kind === 'files') side.cellFinished();
      return;
    }
    if (event.kind === 'cell_started') {
      const cell = cellNode(event);
      byNumber.set(event.cell, cell);
      cells.append(cell.node);
      running = cell;
      setState('running', 'running');
      if (follow.checked) cell.node.scrollIntoView({ block: 'end' });
      return;
    }
    if (event.kind === 'cell_finished') {
      const cell = byNumber.get(event.cell);
      if (!cell) return;
      finish(cell, event);
      if (running === cell) running = null;
      setState('idle', 'idle');
      if (follow.checked) cell.node.scrollIntoView({ block: 'end' });
      side.cellFinished();
    }
  };

  setInterval(() => {
    if (!running) return;
    const elapsed = Date.now() + offset - running.started;
    running.meta.textContent = `${running.tool} · running for ${seconds(elapsed)} of ${seconds(running.timeout)}`;
  }, 200);

  // The session process's memory (its resident set), every 2 s while it lives.
  const status = setInterval(async () => {
    try {
      const now = await getJson(api('status'));
      memory.textContent = now.memory_bytes === null ? '' : `memory ${megabytes(now.memory_bytes).slice(3)}`;
      if (now.ended) clearInterval(status);
    } catch {
      clearInterval(status);
    }
  }, 2000);

  const source = new EventSource(api('events'));
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) setState('disconnected', 'ended');
  };
}

/** Variables, files and packages, each fetched when asked (variables run a listing in the session's turn). */
function sidePanel() {
  const content = el('div', 'panel-content', el('p', 'muted', 'Choose a panel.'));
  let current = null;
  const tabs = ['files', 'variables', 'packages'].map((name) => {
    const button = el('button', 'tab', name);
    button.addEventListener('click', () => show(name));
    return button;
  });
  const show = async (name) => {
    current = name;
    tabs.forEach((tab) => tab.classList.toggle('active', tab.textContent === name));
    content.replaceChildren(el('p', 'muted', 'Loading…'));
    try {
      const data = await getJson(api(name));
      if (current !== name) return;
      content.replaceChildren(...render[name](data));
    } catch (error) {
      content.replaceChildren(el('p', 'muted', error.message));
    }
  };
  const render = {
    files: ({ files }) =>
      files.length === 0
        ? [el('p', 'muted', 'No files.')]
        : files.map((f) => {
            const link = el('a', null, f.path);
            link.href = `${api('file')}?download=1&path=${encodeURIComponent(f.path)}`;
            return el('div', 'row', link, el('span', 'muted', ` ${f.size} B`));
          }),
    variables: ({ variables, omitted }) =>
      [
        ...variables.map((v) =>
          el(
            'div',
            'row',
            el('strong', null, v.name),
            el('span', 'muted', ` ${v.type}${v.shape ? ` ${JSON.stringify(v.shape)}` : ''}`),
            el('div', 'repr', v.repr),
          ),
        ),
        variables.length === 0 ? el('p', 'muted', 'The namespace is empty.') : null,
        omitted > 0 ? el('p', 'muted', `${omitted} more not shown.`) : null,
      ].filter(Boolean),
    packages: ({ loaded, available }) => [
      el('h3', null, 'loaded'),
      el('p', null, (loaded ?? []).map((p) => (typeof p === 'string' ? p : `${p.name} ${p.version ?? ''}`)).join(', ') || '—'),
      el('h3', null, 'available offline'),
      el('p', 'muted', `${(available ?? []).length} packages`),
    ],
  };
  const node = el('aside', 'side', el('div', 'tabs', ...tabs), content);
  // Files change with cells: a shown files panel follows them (variables wait to be asked: they run in the session).
  return { node, cellFinished: () => current === 'files' && show('files') };
}

if (sessionId === null) void sessionsPage();
else notebookPage();
