// What pyodide-mcp's MCP Apps share (cell-app.html, session-app.html; docs/tools.md "MCP Apps"): the spec's JSON-RPC
// over postMessage with the host, and the safe ways to put a session's output on the page. The server inlines this
// file into each app (src/view/mcp-apps.ts), whose CSP runs it by hash. Plain JavaScript, no build, no network.
// Security: everything the apps show came from a Python session (attacker-controlled). It enters the DOM as text
// (textContent) or as a data: image (an image document runs no script and loads nothing, SVG included); HTML only in
// an <iframe sandbox srcdoc> without allow-scripts or allow-same-origin, under this page's CSP too; a Plotly chart in
// one with allow-scripts (still no allow-same-origin), where the CSP runs plotly.js and the chart's loader alone.
window.pyodideMcpApp = (() => {
  'use strict';

  const el = (tag, cls, ...children) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    for (const child of children) node.append(child);
    return node;
  };
  const text = (value) => (typeof value === 'string' ? value : '');

  const IMAGE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;
  const BASE64 = /^[A-Za-z0-9+/=\s]*$/;
  /** An image from base64 data, or null when the type or the data is not one an <img> may take. */
  const image = (mimeType, base64, alt) => {
    if (!IMAGE.test(mimeType) || typeof base64 !== 'string' || !BASE64.test(base64)) return null;
    const img = el('img', 'figure');
    img.alt = alt || 'figure';
    img.src = `data:${mimeType};base64,${base64.replace(/\s/g, '')}`;
    return img;
  };
  /** HTML output in a frame with no allow-scripts and no allow-same-origin: an inert document in an opaque origin. */
  const htmlFrame = (html) => {
    const frame = el('iframe', 'html-frame');
    frame.setAttribute('sandbox', '');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.srcdoc = html;
    return frame;
  };

  /**
   * A Plotly chart file (workers/python/rich_output.py) live, in a frame with allow-scripts and no allow-same-origin
   * (an opaque origin, under this page's CSP too, so nothing is fetched): only when each script the chart needs is one
   * this page's CSP allows by hash (plotly_chart.js and a known plotly.js, src/view/plotly-scripts.ts), since no other
   * would run. Resolves to the frame, or to null when the file is no chart this view can draw.
   */
  const plotlyFrame = async (html) => {
    const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
    const allowed = new Set([...(policy ? policy.content : '').matchAll(/'sha256-([A-Za-z0-9+/=]+)'/g)].map((m) => m[1]));
    const parsed = new DOMParser().parseFromString(html, 'text/html'); // parsing runs nothing
    if (!parsed.getElementById('pyodide-mcp-figure')) return null;
    const scripts = [...parsed.querySelectorAll('script:not([type]), script[type="text/javascript"]')].map((s) => s.textContent);
    if (scripts.length < 2) return null;
    if (window.crypto && crypto.subtle) {
      // The first two are plotly.js and the loader; a post_script after them would not run here, and need not.
      for (const script of scripts.slice(0, 2)) {
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script)));
        if (!allowed.has(btoa(String.fromCharCode(...digest)))) return null;
      }
    }
    const frame = el('iframe', 'chart-frame');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.srcdoc = html;
    return frame;
  };

  const bytesOf = (base64) => Uint8Array.from(atob(base64.replace(/\s/g, '')), (c) => c.charCodeAt(0));
  const blockText = (result) =>
    (result && Array.isArray(result.content) ? result.content : [])
      .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .join('\n');
  /** How long a request through the host may take (a tool call waits for the session's turn). */
  const REQUEST_TIMEOUT_MS = 120000;

  /** A tool call through the host; an error reply rejects with its text. */
  const callTool = async (app, name, args) => {
    const result = await app.request('tools/call', { name, arguments: args }, REQUEST_TIMEOUT_MS);
    if (!result || result.isError) throw new Error(blockText(result) || `${name} failed`);
    return result;
  };

  /**
   * A session file's text ({ sessionId, path, uri }): one resources/read when the host forwards it and the file fits a
   * reply, else read_file's pages, at most `maxBytes` in all.
   */
  const readSessionFile = async (app, file, maxBytes) => {
    let whole = 'no resource URI';
    if (file.uri) {
      try {
        const read = await app.request('resources/read', { uri: file.uri }, REQUEST_TIMEOUT_MS);
        const content = read && Array.isArray(read.contents) ? read.contents[0] : null;
        if (content && typeof content.text === 'string') return content.text;
        if (content && typeof content.blob === 'string') return new TextDecoder().decode(bytesOf(content.blob));
        whole = 'no content';
      } catch (error) {
        whole = error.message;
      }
    }
    // Bytes, not text, per page: a page may end inside a UTF-8 character.
    const pages = [];
    let offset = 0;
    for (;;) {
      const page = (await callTool(app, 'read_file', { session_id: file.sessionId, path: file.path, encoding: 'base64', offset }))
        .structuredContent;
      if (!page || typeof page.content !== 'string') throw new Error(`the file could not be read whole (${whole}) nor in pages`);
      if (page.size > maxBytes) {
        throw new Error(`${file.path} is ${page.size} bytes, more than this view reads (${maxBytes}); see the browser view (--view)`);
      }
      const bytes = bytesOf(page.content);
      pages.push(bytes);
      offset += bytes.length;
      if (!page.truncated || bytes.length === 0) break;
    }
    const all = new Uint8Array(offset);
    let at = 0;
    for (const bytes of pages) {
      all.set(bytes, at);
      at += bytes.length;
    }
    return new TextDecoder().decode(all);
  };

  /** The most bytes of a chart file the apps read (plotly.js alone is 3.5 MB). */
  const MAX_CHART_BYTES = 16 * 1024 * 1024;

  /**
   * An HTML file a cell showed (a Plotly chart, workers/python/rich_output.py; `file`: { sessionId, path, uri }):
   * named at once, then read through the host and drawn live when it is a chart the apps can run (plotlyFrame).
   */
  const chartOutput = (app, file) => {
    const name = `Interactive chart ${file.path}`;
    const box = el('div', 'chart', el('p', 'note', `${name}: reading it…`));
    (async () => {
      let frame = null;
      let why = 'not a chart this view can draw (it runs only the plotly.js of the runtimes it knows)';
      try {
        frame = await plotlyFrame(await readSessionFile(app, file, MAX_CHART_BYTES));
      } catch (error) {
        why = error.message;
      }
      box.replaceChildren(
        ...(frame ? [el('p', 'note', name), frame] : [el('p', 'note', `${name}: ${why}; open it in the browser view (--view).`)]),
      );
    })();
    return box;
  };

  /**
   * Connects to the host: the spec's handshake (ui/initialize, then ui/notifications/initialized), the host's
   * notifications to `handlers` (toolInput, toolResult, toolCancelled, each with the params), and `request` for the
   * app's own requests (tools/call, resources/read), which the host forwards to the server. `host` holds the host's
   * answer to ui/initialize (hostCapabilities, hostContext) once it came.
   */
  const connect = (name, handlers) => {
    const pending = new Map();
    let nextId = 1;
    const app = { host: null };
    const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
    app.request = (method, params, timeoutMs = 0) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = timeoutMs > 0 ? setTimeout(() => settle(id, new Error(`the host did not answer ${method}`)), timeoutMs) : null;
        pending.set(id, { resolve, reject, timer });
        send({ id, method, params });
      });
    const settle = (id, error, result) => {
      const waiting = pending.get(id);
      if (!waiting) return;
      pending.delete(id);
      if (waiting.timer) clearTimeout(waiting.timer);
      if (error) waiting.reject(error);
      else waiting.resolve(result);
    };

    window.addEventListener('message', (event) => {
      if (event.source !== window.parent) return;
      const message = event.data;
      if (!message || message.jsonrpc !== '2.0') return;
      if (message.method === undefined) {
        if (message.error) settle(message.id, new Error(text(message.error.message) || 'the host refused the request'));
        else settle(message.id, null, message.result);
        return;
      }
      const params = message.params || {};
      if (message.method === 'ui/notifications/tool-input') handlers.toolInput?.(params);
      else if (message.method === 'ui/notifications/tool-result') handlers.toolResult?.(params);
      else if (message.method === 'ui/notifications/tool-cancelled') handlers.toolCancelled?.(params);
      else if (message.method === 'ui/notifications/host-context-changed' && app.host) {
        app.host.hostContext = { ...(app.host.hostContext || {}), ...params };
      } else if (message.id !== undefined && message.method === 'ui/resource-teardown') send({ id: message.id, result: {} });
      else if (message.id !== undefined) {
        send({ id: message.id, error: { code: -32601, message: `${message.method} is not handled by this view` } });
      }
    });

    app.ready = app
      .request('ui/initialize', { appInfo: { name, version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
      .then((result) => {
        app.host = result && typeof result === 'object' ? result : {};
        send({ method: 'ui/notifications/initialized', params: {} });
        return app.host;
      });
    // The host sizes the frame to the content.
    new ResizeObserver(() => {
      send({ method: 'ui/notifications/size-changed', params: { height: Math.ceil(document.documentElement.scrollHeight) } });
    }).observe(document.body);
    return app;
  };

  /** The name of the tool whose result the app shows, when the host says it (hostContext.toolInfo); else null. */
  const toolName = (app) => {
    const info = app.host && app.host.hostContext && app.host.hostContext.toolInfo;
    return info && info.tool && typeof info.tool.name === 'string' ? info.tool.name : null;
  };

  return { el, text, image, htmlFrame, chartOutput, blockText, callTool, readSessionFile, connect, toolName };
})();
