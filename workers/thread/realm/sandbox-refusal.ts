/**
 * The one text every refusal of the in-worker sandbox carries, so that users, logs and tests can tell a sandbox
 * refusal from any other failure. Shared by the lockdown's mechanisms (lockdown.ts).
 */

/** Text of every refusal by the sandbox (tests match on it). */
export const SANDBOX_REFUSAL = 'disabled in the pyodide-mcp sandbox';

/** A stand-in for a host-facing function: it throws the sandbox's refusal. */
export function refuse(what: string): () => never {
  return () => {
    throw new Error(`${what} is ${SANDBOX_REFUSAL}`);
  };
}
