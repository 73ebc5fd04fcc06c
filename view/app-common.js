// What pyodide-mcp's MCP Apps share (cell-app.html, session-app.html; docs/tools.md "MCP Apps"): the spec's JSON-RPC
// over postMessage with the host, and the safe ways to put a session's output on the page. The server inlines this
// file into each app (src/view/mcp-apps.ts), whose CSP runs it by hash. Plain JavaScript, no build, no network.
// Security: everything the apps show came from a Python session (attacker-controlled). It enters the DOM as text
// (textContent) or as a data: image (an image document runs no script and loads nothing, SVG included); HTML only in
// an <iframe sandbox srcdoc> without allow-scripts or allow-same-origin, under this page's CSP too.
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

  return { el, text, image, htmlFrame, connect, toolName };
})();
