/**
 * Session ids: 192 bits from the CSPRNG in base64url (the capability: whoever holds the id can use the session),
 * with the operator's routing prefix in front when the server has one (--instance-id): `<instance>.<random>`. A
 * proxy in front of several servers sends a call to the instance that holds its session from the id alone. The
 * prefix is public (it names a server, not a session); the random part alone is the secret.
 */
import { randomBytes } from 'node:crypto';
import { PyodideMcpError } from '../errors.js';

/** An instance id: 1 to 32 of a-z, 0-9 and `-`, not starting or ending with `-` (a DNS label, shorter). */
export const INSTANCE_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/**
 * A session id as newSessionId() makes them, with or without a prefix. Nothing else may become a path in
 * --state-dir (the `.` is safe there: the prefix never is empty, so an id is never `.` or `..`).
 */
export const SESSION_ID = /^(?:[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?\.)?[A-Za-z0-9_-]{32}$/;

/** A new session id: 24 random bytes in base64url, after `<instance>.` when the server has an instance id. */
export function newSessionId(instance: string | null): string {
  const random = randomBytes(24).toString('base64url');
  return instance === null ? random : `${instance}.${random}`;
}

/** The instance a well-formed prefixed id names, or null (no prefix, or not an id this server could have made). */
export function instanceOf(id: string): string | null {
  if (!SESSION_ID.test(id)) return null;
  const dot = id.indexOf('.');
  return dot < 0 ? null : id.slice(0, dot);
}

/**
 * The error for an id that names another instance, or null when the id may be this server's (its own prefix, or
 * none: ids saved before the server had an instance id stay usable). Telling the caller where the session lives
 * reveals nothing: the prefix is in the id the caller sent.
 */
export function foreignInstanceError(id: string, instance: string | null): PyodideMcpError | null {
  const owner = instanceOf(id);
  if (owner === null || owner === instance) return null;
  const here = instance === null ? 'this server has no instance id (--instance-id)' : `this server is instance "${instance}"`;
  return new PyodideMcpError(
    'WRONG_INSTANCE',
    `Session ${JSON.stringify(id)} belongs to instance "${owner}" but ${here}: send the call to instance "${owner}" (a proxy routes on the part of session_id before the first ".").`,
  );
}
