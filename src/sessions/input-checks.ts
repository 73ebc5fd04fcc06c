/**
 * Checks of a call's inputs against the server's limits, made before anything is queued: the same for an MCP tool
 * and for the library (src/api/sandbox.ts), with the same messages.
 */
import { PyodideMcpError } from '../errors.js';
import type { Config } from '../server/config.js';

/** Refuses code longer than --max-code-chars, before it is queued. */
export function checkCodeLength(config: Pick<Config, 'maxCodeChars'>, code: string): void {
  if (code.length > config.maxCodeChars) {
    throw new PyodideMcpError(
      'INVALID_INPUT',
      `code is ${code.length} characters, more than the limit of ${config.maxCodeChars} (--max-code-chars). Split it into several calls; state persists between them.`,
    );
  }
}

/** Checks timeout_seconds against the server's limits; returns milliseconds (the default time limit when not given). */
export function timeoutFor(config: Pick<Config, 'defaultTimeoutMs' | 'maxTimeoutMs'>, timeoutSeconds: number | undefined): number {
  const timeoutMs = timeoutSeconds === undefined ? config.defaultTimeoutMs : Math.round(timeoutSeconds * 1000);
  if (timeoutMs > config.maxTimeoutMs) {
    throw new PyodideMcpError(
      'INVALID_INPUT',
      `timeout_seconds ${timeoutSeconds} is above the server's limit of ${config.maxTimeoutMs / 1000} (--max-timeout).`,
    );
  }
  return timeoutMs;
}
