/**
 * Host-side file rules: session paths confined to the workspace, `session://` URIs, MIME types, and
 * the allow-list and sensitive-file rules for copying files between the host and a session.
 * Pure functions except the host checks, which must look at the real filesystem (realpath).
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, posix, relative, resolve, sep } from 'node:path';
import mime from 'mime-types';
import { PyodideMcpError } from '../errors.js';
import { WORKSPACE } from '../contract.js';


/**
 * Turns a user-given session path into a normalised workspace-relative POSIX path ('' is the workspace
 * itself). Refuses null bytes, backslashes, `..` that climbs out, and absolute paths outside the
 * workspace, with an error that says which rule was broken.
 */
export function sessionPath(input: string): string {
  const deny = (why: string) => {
    throw new PyodideMcpError('PATH_DENIED', `Path ${JSON.stringify(input)} ${why}; nothing was changed. Use a path relative to the session workspace (${WORKSPACE}), e.g. "data/input.csv".`);
  };
  if (input.includes('\0')) deny('contains a NUL byte');
  if (input.includes('\\')) deny('contains a backslash');
  let path = input.trim() === '' ? '.' : input;
  if (path.startsWith('/')) {
    if (path !== WORKSPACE && !path.startsWith(WORKSPACE + '/')) deny(`is outside the session workspace ${WORKSPACE}`);
    path = path.slice(WORKSPACE.length + 1) || '.';
  }
  const normal = posix.normalize(path);
  if (normal === '..' || normal.startsWith('../')) deny('climbs out of the session workspace with ".."');
  return normal === '.' ? '' : normal.replace(/\/+$/, '');
}

/** `session://<id>/<path>` with each path segment percent-encoded. */
export function sessionUri(sessionId: string, path: string): string {
  return `session://${sessionId}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Types the mime-types database lacks or gives a less useful name for, in a data-analysis workspace. */
const EXTRA_TYPES: Record<string, string> = {
  py: 'text/x-python',
  ipynb: 'application/x-ipynb+json',
  tsv: 'text/tab-separated-values',
  parquet: 'application/vnd.apache.parquet',
  log: 'text/plain',
};

/** The MIME type for a file name; unknown kinds are application/octet-stream. */
export function mimeType(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTRA_TYPES[extension] ?? (mime.lookup(path) || 'application/octet-stream');
}

/** True when bytes look like text: valid UTF-8 with no NUL. */
export function looksLikeText(data: Uint8Array): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

// Security: files that hold credentials are never copied into a session, whatever the allow-list says.
const SENSITIVE_DIRS = ['.ssh', '.gnupg', '.aws', '.azure', '.kube', '.config/gcloud', '.docker'];
const SENSITIVE_NAME = [
  /^\.env($|\.)/i,
  /^credentials(\..*)?$/i,
  /^\.netrc$/i,
  /^\.npmrc$/i,
  /^\.pypirc$/i,
  /^\.git-credentials$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /\.(pem|key|p12|pfx|keystore|jks)$/i,
  /(^|[._-])(secret|secrets|token|tokens|apikey|api_key|password|passwd)([._-]|$)/i,
];

/** The rule a host path breaks by being a credential file, or null. */
export function sensitiveReason(realPath: string): string | null {
  const parts = realPath.split(sep);
  const name = basename(realPath);
  for (const dir of SENSITIVE_DIRS) {
    const dirParts = dir.split('/');
    for (let i = 0; i + dirParts.length <= parts.length - 1; i++) {
      if (dirParts.every((d, j) => parts[i + j] === d)) return `it is inside a ${dir}/ directory`;
    }
  }
  for (const pattern of SENSITIVE_NAME) if (pattern.test(name)) return `its name (${name}) marks it as a credential or secret`;
  return null;
}

/** Where host files may be read from or written to. */
export interface HostAccess {
  allowDirs: string[];
  allowAll: boolean;
}

/**
 * Resolves a host path for upload (must exist) or download (may not exist yet: its parent must), with
 * symlinks resolved first, then checks it against the allow-list and the sensitive-file rules.
 * Returns the real path to use.
 */
export function checkHostPath(input: string, access: HostAccess, purpose: 'read' | 'write'): string {
  const deny = (why: string): never => {
    throw new PyodideMcpError('PATH_DENIED', `Host path ${JSON.stringify(input)} is refused: ${why}.`);
  };
  if (input.includes('\0')) deny('it contains a NUL byte');
  if (!isAbsolute(input) && input.trim() === '') deny('it is empty');
  const absolute = resolve(input);
  let real: string;
  try {
    real = purpose === 'read' ? realpathSync(absolute) : resolve(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return deny(purpose === 'read' ? 'it does not exist' : 'its directory does not exist');
  }
  const reason = sensitiveReason(real);
  if (reason) deny(`${reason}; credential files are never copied, whatever --allow-dir says`);
  if (!access.allowAll && !access.allowDirs.some((dir) => isInside(real, dir))) {
    deny(`it is not inside an allowed directory (${access.allowDirs.join(', ')}); the operator can add one with --allow-dir`);
  }
  return real;
}

/** True when `path` is `dir` or below it (no prefix tricks: /data2 is not inside /data). */
export function isInside(path: string, dir: string): boolean {
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return false;
  }
  const rel = relative(realDir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}
