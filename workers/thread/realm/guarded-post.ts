/**
 * The worker's one way to send to the host (layer 5 of the lockdown, lockdown.ts): what it sends is size- and
 * rate-bounded by a closure user code cannot reach, so even a tampered harness cannot flood the host.
 *
 * Why: after lockdown user code owns the realm's prototypes (MessagePort.prototype, String.prototype.slice, Array
 * iteration, Math.min...); a guard built from them could be defeated, so everything it uses is captured when the
 * worker creates it, first thing, before user code exists.
 */
import { types as utilTypes } from 'node:util';
import { MAX_LOG_CHARS } from '../../../src/wire/limits.js';

/** Bounds on what the worker sends to the host. */
export interface PostLimits {
  /** Longest log message, in characters (longer ones are cut). */
  maxLogChars: number;
  /** Log messages per second on average, and the burst allowed above it; the rest is dropped and counted. */
  logsPerSecond: number;
  logBurst: number;
  /** Most characters of strings in one message; a reply above it is replaced by an error reply. */
  maxMessageChars: number;
}

export const DEFAULT_POST_LIMITS: PostLimits = {
  maxLogChars: MAX_LOG_CHARS,
  logsPerSecond: 200,
  logBurst: 2_000,
  maxMessageChars: 64_000_000,
};

/**
 * Returns the worker's `post(message, transfer)`: `port.postMessage` bound now (before user code can touch
 * MessagePort.prototype; `port` is the parent port, or the router of workers/thread/direct-channel.ts), with log messages
 * cut and rate-limited, and any message whose strings exceed `maxMessageChars` replaced by an error reply (a
 * tampered harness could otherwise hand the host a giant string).
 */
export function createGuardedPost<M extends { type: string }>(
  port: { postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void },
  limits: PostLimits = DEFAULT_POST_LIMITS,
) {
  // Everything is captured now, before user code exists: after lockdown user code owns the realm's prototypes and
  // could otherwise patch String.prototype.slice, Array iteration, Math.min... to defeat these bounds.
  const postMessage = port.postMessage.bind(port) as (message: unknown, transfer?: readonly ArrayBuffer[]) => void;
  const now = performance.now.bind(performance);
  const call = Function.prototype.call;
  const sliceString = call.bind(String.prototype.slice) as (text: string, start: number, end: number) => string;
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  // A brand check, like calling the byteLength getter, without the two exceptions per plain object that made this
  // walk cost as much as the cell itself (measured: 0.13 ms of a "1+1" reply under load).
  const isAnyArrayBuffer = utilTypes.isAnyArrayBuffer;
  const keys = Object.keys;
  const min = Math.min;
  const toText = String;
  const isBinary = (value: unknown): boolean => isView(value) || isAnyArrayBuffer(value);
  let tokens = limits.logBurst;
  let last = now();
  let dropped = 0;

  const stringChars = (value: unknown, budget: number, depth = 0): number => {
    if (typeof value === 'string') return value.length;
    // Binary data (file bytes) is not walked: its size is bounded by the workspace quota, not by this guard.
    if (value === null || typeof value !== 'object' || depth > 64 || isBinary(value)) return 0;
    let total = 0;
    const names = isArray(value) ? null : keys(value);
    const count = names ? names.length : (value as unknown[]).length;
    for (let i = 0; i < count && total <= budget; i++) {
      const item = names ? (value as Record<string, unknown>)[names[i]!] : (value as unknown[])[i];
      total += stringChars(item, budget - total, depth + 1);
    }
    return total;
  };

  return (message: M, transfer: ArrayBuffer[] = []): void => {
    if (message.type === 'log') {
      const t = now();
      tokens = min(limits.logBurst, tokens + ((t - last) / 1000) * limits.logsPerSecond);
      last = t;
      if (tokens < 1) {
        dropped++;
        return;
      }
      tokens--;
      let text = toText((message as unknown as { message: unknown }).message);
      if (dropped > 0) {
        text = `[${dropped} log message(s) dropped: rate limit] ${text}`;
        dropped = 0;
      }
      if (text.length > limits.maxLogChars)
        text = `${sliceString(text, 0, limits.maxLogChars)} [... ${text.length - limits.maxLogChars} characters cut]`;
      postMessage({ type: 'log', message: text });
      return;
    }
    if (stringChars(message, limits.maxMessageChars) > limits.maxMessageChars) {
      const id = (message as unknown as { id?: unknown }).id;
      if (message.type === 'reply' && typeof id === 'number') {
        postMessage({
          id,
          type: 'reply',
          ok: false,
          error: { code: 'WORKER_ERROR', message: `The reply exceeded ${limits.maxMessageChars} characters and was not sent.` },
        });
      }
      return;
    }
    postMessage(message, transfer);
  };
}
