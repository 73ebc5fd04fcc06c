/**
 * The client compatibility suite's shared part: how each framework starts the server, what a tool result looks like
 * once the framework has turned it into model input, and the scenarios every framework must pass (issue 11).
 *
 * Each framework's test drives the built server with that framework's own stdio MCP client and its own stand-in for
 * a model (a mock model, a scripted Model, or a real chat model with a fake fetch). The stand-in makes the tool
 * calls of a script, one per turn, each decided from the previous tool result as the framework handed it to the
 * model; so a session id the model cannot see, or a figure that reaches it only as base64 text, fails here.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CLI } from '../helpers.js';

/** The frameworks' packages need Node.js 22+ (their `engines`); on older lines the suite is skipped, not failed. */
export const SKIP: string | false =
  Number(process.versions.node.split('.')[0]) < 22
    ? `needs Node.js 22+ (the agent frameworks' engines); this is Node ${process.versions.node}. CI runs it with .ci/.node22`
    : false;

/**
 * Command and arguments that start the built server, as a framework's stdio client would, on this same Node.
 * No warm pool: each framework's run takes two sessions (a scientific legacy session boots in 10–17 s) and a pool
 * would boot a third for nothing at every take; a session booted on demand costs the same wait.
 */
export function serverCommand(...flags: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [CLI, '--warm-sessions', '0', ...flags] };
}

/** The environment given to the server: just PATH (the frameworks' clients pass a minimal one by default too). */
export const serverEnv: Record<string, string> = { PATH: process.env.PATH ?? '' };

/** One tool result as the framework hands it to its model: text parts, image parts, and whether it is an error. */
export interface SeenResult {
  /** Text parts in order (an error result's message too). */
  texts: string[];
  /** Image parts: media type and base64 data. */
  images: { mediaType: string; data: string }[];
  /** What the framework produced before normalising, for assertion messages. */
  raw: unknown;
}

/** A tool call the scripted model makes. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One turn of a script: the next tool call, decided from the previous result as the model saw it. */
export type Step = (previous: SeenResult | undefined) => ToolCall;

/** What each framework's test provides to the shared scenarios. */
export interface ClientUnderTest {
  /**
   * Runs the framework's agent loop with its scripted model making `steps`' calls, one per turn, and returns each
   * tool result as the model received it (in the framework's own model input), in order.
   */
  run(steps: Step[]): Promise<SeenResult[]>;
}

/** All text the model read for a result. */
export function textOf(seen: SeenResult): string {
  return seen.texts.join('\n');
}

/** Session ids are 192 random bits in base64url: 32 characters. */
const SESSION_ID = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g;

/** The session id a model would read from a result's text (the first one; a result names one session). */
export function sessionIdIn(seen: SeenResult | undefined): string {
  assert.ok(seen, 'no previous tool result');
  const found = textOf(seen).match(SESSION_ID);
  assert.ok(found, `no session id in what the model saw: ${preview(seen)}`);
  return found[0];
}

/** A short view of a result for assertion messages (base64 runs shortened). */
export function preview(seen: SeenResult): string {
  return JSON.stringify(seen.raw ?? seen)
    .replace(/[A-Za-z0-9+/=]{200,}/g, (b64) => `<${b64.length} base64 chars>`)
    .slice(0, 3000);
}

/** PNG files start with these bytes. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Asserts that a result reached the model with a PNG image part, and not as base64 text. */
export function assertPngSeen(seen: SeenResult): void {
  const pngs = seen.images.filter((image) => image.mediaType === 'image/png');
  assert.equal(pngs.length, 1, `expected one PNG image part in what the model saw: ${preview(seen)}`);
  const bytes = Buffer.from(pngs[0]!.data, 'base64');
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'the image part is not a PNG');
  assert.ok(bytes.length > 1000, `a ${bytes.length}-byte PNG is too small for a plot`);
  // 'iVBORw0KGgo' is the PNG signature in base64: the picture must not also reach the model as text.
  assert.doesNotMatch(textOf(seen), /iVBORw0KGgo/, 'the PNG also reached the model as base64 text');
}

const execute = (args: Record<string, unknown>): ToolCall => ({ name: 'execute_code', args });

/** A plot that matplotlib (preloaded by default) captures as one PNG figure. */
export const PLOT = 'import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title("squares")\nplt.show()';

/**
 * Registers the scenarios every framework must pass, as tests of the enclosing describe(). They share one session
 * (besides the ones the "no session" and null tests start), so that a framework's run boots only three; framework-specific
 * tests registered after them can continue in it through `sharedSession`.
 */
export function scenarioTests(
  client: () => ClientUnderTest,
  /** The framework checks arguments against the tool's input schema before calling (LangChain). */
  checksArguments = false,
): { sharedSession: () => string } {
  let session: string | undefined;
  const shared = () => {
    assert.ok(session, 'the stateful test did not leave a session to continue in');
    return session;
  };

  it('stateful sequence: x = 41 in a new session, then x + 1 with its session_id gives 42', async () => {
    const [first, second] = await client().run([
      () => execute({ code: 'x = 41' }),
      (previous) => execute({ code: 'x + 1', session_id: sessionIdIn(previous) }),
    ]);
    session = sessionIdIn(first);
    assert.match(textOf(first!), /new session/i, `the reply should say a new session was started: ${preview(first!)}`);
    assert.equal(sessionIdIn(second), session);
    assert.match(textOf(second!), /\b42\b/, preview(second!));
  });

  it('a one-line result reaches the model compactly', async () => {
    const [seen] = await client().run([() => execute({ code: 'x + 1', session_id: shared() })]);
    const text = textOf(seen!);
    assert.match(text, /\b42\b/, preview(seen!));
    // The duplicate: LangChain appends the structured copy to the text; the whole must stay small.
    assert.ok(text.length < 600, `${text.length} characters for a one-line result: ${preview(seen!)}`);
  });

  it('"no session": session_id "" starts a new session, timeout_seconds null means the default', async () => {
    // session_id is a plain string (its Mcp-Param-Session mark needs one), so "" is how a schema-checking client
    // says "none"; null is accepted by the server too (next test).
    const [first, second] = await client().run([
      () => execute({ code: 'z = 20', session_id: '', timeout_seconds: null }),
      (previous) => execute({ code: 'z + 1', session_id: sessionIdIn(previous), timeout_seconds: null }),
    ]);
    const fresh = sessionIdIn(first);
    assert.notEqual(fresh, session, 'session_id "" must start a new session');
    // Rejections as the frameworks word them: the server's -32602, LangChain's own schema check.
    assert.doesNotMatch(textOf(first!), /-32602|INVALID_INPUT|validation error|did not match/i, preview(first!));
    assert.match(textOf(second!), /\b21\b/, preview(second!));
    // Frees the second session's memory for the rest of the run.
    await client().run([() => ({ name: 'close_session', args: { session_id: fresh } })]);
  });

  it('session_id null: the server reads it as omitted, unless the framework refuses it against the schema first', async () => {
    const [first] = await client().run([() => execute({ code: '6 * 7', session_id: null })]);
    const text = textOf(first!);
    if (checksArguments) {
      // LangChain checks arguments against the input schema before the call: null is not a string.
      assert.match(text, /did not match expected schema/, preview(first!));
      return;
    }
    assert.match(text, /\b42\b/, preview(first!));
    await client().run([() => ({ name: 'close_session', args: { session_id: sessionIdIn(first) } })]);
  });

  it('a Python error comes back as a readable result the loop continues after', async () => {
    const [error, after] = await client().run([
      () => execute({ code: 'def f():\n    return 1 / 0\nf()', session_id: shared() }),
      () => execute({ code: 'x', session_id: shared() }),
    ]);
    assert.match(textOf(error!), /ZeroDivisionError/, preview(error!));
    assert.match(textOf(error!), /division by zero/, preview(error!));
    assert.match(textOf(after!), /\b41\b/, preview(after!));
  });

  it('a timeout is reported and the session keeps its state', async () => {
    const [timedOut, after] = await client().run([
      () => execute({ code: 'y = 7\nwhile True:\n    pass', session_id: shared(), timeout_seconds: 1 }),
      () => execute({ code: 'x + y', session_id: shared() }),
    ]);
    assert.match(textOf(timedOut!), /TimeoutError/, preview(timedOut!));
    assert.match(textOf(after!), /\b48\b/, preview(after!));
  });

  it('a matplotlib plot reaches the model as an image, with text naming the file', async () => {
    const [plot] = await client().run([() => execute({ code: PLOT, session_id: shared() })]);
    assertPngSeen(plot!);
    assert.match(textOf(plot!), /figures\/\S+\.png/, preview(plot!));
  });

  return { sharedSession: shared };
}
