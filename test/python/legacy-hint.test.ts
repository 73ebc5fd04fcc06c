/** The legacy runtime's version hint (src/python/legacy-hint.ts): a version gap gets it, a sandbox error never. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legacyHint } from '../../src/python/legacy-hint.js';

const FACTS = { python: '3.8.2', pyodide: '0.17.1', packages: {} };
const error = (type: string, message: string) => ({ type, message, traceback: `${type}: ${message}\n` });

describe('legacyHint', () => {
  it('names the versions for a missing module attribute', () => {
    assert.match(legacyHint(error('AttributeError', "module 'math' has no attribute 'lcm'"), '', FACTS) ?? '', /^Hint: .*Python 3\.8\.2/);
  });

  it("leaves alone an error whose message carries the harness's sandbox line (workers/python/sandbox_hints.py)", () => {
    for (const [type, message] of [
      ['AttributeError', "module 'webbrowser' has no attribute 'BackgroundBrowser'\nSandbox: webbrowser is a stand-in in this sandbox"],
      ['AttributeError', "module 'http.client' has no attribute 'HTTPSConnection'\nSandbox: this sandbox has no network, by design."],
      ['ImportError', "cannot import name 'Image' from 'IPython.display' (unknown location)\nSandbox: IPython.display is a stand-in"],
    ]) {
      assert.equal(legacyHint(error(type!, message!), '', FACTS), null, message);
    }
  });
});
