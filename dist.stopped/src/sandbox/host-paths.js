/**
 * Host-side file rules: session paths confined to the workspace, `session://` URIs, MIME types, and
 * the allow-list and sensitive-file rules for copying files between the host and a session.
 * Pure functions except the host checks (realpath) and the host reads and writes that follow them.
 */
import { constants, realpathSync } from 'node:fs';
import { open, readlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, posix, relative, resolve, sep } from 'node:path';
import mime from 'mime-types';
import { PyodideMcpError } from '../errors.js';
import { WORKSPACE } from '../contract.js';
/**
 * Turns a user-given session path into a normalised workspace-relative POSIX path ('' is the workspace
 * itself). Refuses null bytes, backslashes, `..` that climbs out, and absolute paths outside the
 * workspace, with an error that says which rule was broken.
 */
export function sessionPath(input) {
    const deny = (why) => {
        throw new PyodideMcpError('PATH_DENIED', `Path ${JSON.stringify(input)} ${why}; nothing was changed. Use a path relative to the session workspace (${WORKSPACE}), e.g. "data/input.csv".`);
    };
    if (input.includes('\0'))
        deny('contains a NUL byte');
    if (input.includes('\\'))
        deny('contains a backslash');
    let path = input.trim() === '' ? '.' : input;
    if (path.startsWith('/')) {
        if (path !== WORKSPACE && !path.startsWith(WORKSPACE + '/'))
            deny(`is outside the session workspace ${WORKSPACE}`);
        // Extra slashes after the prefix ("/workspace//etc") still mean a path inside the workspace, never an absolute one.
        path = path.slice(WORKSPACE.length + 1).replace(/^\/+/, '') || '.';
    }
    const normal = posix.normalize(path).replace(/\/+$/, '');
    if (normal === '..' || normal.startsWith('../'))
        deny('climbs out of the session workspace with ".."');
    return normal === '.' || normal === '' ? '' : normal;
}
/** `session://<id>/<path>` with each path segment percent-encoded. */
export function sessionUri(sessionId, path) {
    return `session://${sessionId}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
/** Types the mime-types database lacks or gives a less useful name for, in a data-analysis workspace. */
const EXTRA_TYPES = {
    py: 'text/x-python',
    ipynb: 'application/x-ipynb+json',
    tsv: 'text/tab-separated-values',
    parquet: 'application/vnd.apache.parquet',
    log: 'text/plain',
};
/** The MIME type for a file name; unknown kinds are application/octet-stream. */
export function mimeType(path) {
    const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    // Security: own keys only; a file named `constructor` or `toString` would otherwise get a function for a type.
    const type = Object.hasOwn(EXTRA_TYPES, extension) ? EXTRA_TYPES[extension] : mime.lookup(path);
    return typeof type === 'string' && type !== '' ? type : 'application/octet-stream';
}
/** True when bytes look like text: valid UTF-8 with no NUL. */
export function looksLikeText(data) {
    if (data.includes(0))
        return false;
    try {
        new TextDecoder('utf-8', { fatal: true }).decode(data);
        return true;
    }
    catch {
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
export function sensitiveReason(realPath) {
    const parts = realPath.split(sep);
    const name = basename(realPath);
    for (const dir of SENSITIVE_DIRS) {
        const dirParts = dir.split('/');
        for (let i = 0; i + dirParts.length <= parts.length - 1; i++) {
            if (dirParts.every((d, j) => parts[i + j] === d))
                return `it is inside a ${dir}/ directory`;
        }
    }
    for (const pattern of SENSITIVE_NAME)
        if (pattern.test(name))
            return `its name (${name}) marks it as a credential or secret`;
    return null;
}
// Security: pseudo-filesystems whose entries are views of processes, the kernel and devices, not files
// (/proc/self/environ holds the server's secrets, /dev/stdin its protocol stream). Never a source or a
// destination, whatever --allow-dir or --allow-all-dirs says.
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'];
/**
 * Resolves a host path for upload (must exist) or download (may not exist yet: its parent must), with
 * symlinks resolved first, then checks it against the allow-list, the system directories and the
 * sensitive-file rules. Returns the real path to use; open it with {@link readHostFile} or
 * {@link writeHostFile}, which check again what was opened.
 */
export function checkHostPath(input, access, purpose) {
    const deny = (why) => {
        throw new PyodideMcpError('PATH_DENIED', `Host path ${JSON.stringify(input)} is refused: ${why}.`);
    };
    // Security: no directory is allowed unless the operator named one; the working directory is not a
    // default (MCP clients often start servers in / or in the user's home).
    if (!access.allowAll && access.allowDirs.length === 0) {
        throw new PyodideMcpError('PATH_DENIED', 'Host file access is off: upload_file and download_file work only in directories the operator allows. Start the server with --allow-dir <dir> (repeatable, env PYODIDE_MCP_ALLOW_DIR) to allow one.');
    }
    if (input.includes('\0'))
        deny('it contains a NUL byte');
    if (!isAbsolute(input) && input.trim() === '')
        deny('it is empty');
    const absolute = resolve(input);
    let real;
    try {
        real = purpose === 'read' ? realpathSync(absolute) : resolve(realpathSync(dirname(absolute)), basename(absolute));
    }
    catch {
        return deny(purpose === 'read' ? 'it does not exist' : 'its directory does not exist');
    }
    const system = SYSTEM_ROOTS.find((root) => isInside(real, root));
    if (system)
        deny(`it is under ${system}, which holds views of processes, the kernel or devices rather than files; these are never copied, even with --allow-all-dirs`);
    const reason = sensitiveReason(real);
    if (reason)
        deny(`${reason}; credential files are never copied, whatever --allow-dir says`);
    if (!access.allowAll && !access.allowDirs.some((dir) => isInside(real, dir))) {
        deny(`it is not inside an allowed directory (${access.allowDirs.join(', ')}); the operator can add one with --allow-dir`);
    }
    return real;
}
// Security: O_NOFOLLOW refuses a final component swapped for a symlink after the check; O_NONBLOCK keeps
// a FIFO swapped in from blocking the open forever (it is then refused as not a regular file).
const OPEN_SAFELY = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
/**
 * Reads the regular file at `real` (a path returned by {@link checkHostPath} for 'read'), at most
 * `maxBytes` bytes. What is read is what was checked: the file is opened without following a symlink,
 * the open handle must be a regular file at the checked path, and the bytes come from that handle.
 */
export async function readHostFile(real, maxBytes) {
    const handle = await openChecked(real, constants.O_RDONLY | OPEN_SAFELY);
    try {
        const info = await handle.stat();
        if (info.size > maxBytes) {
            throw new PyodideMcpError('QUOTA_EXCEEDED', `Host file is ${info.size} bytes, above the per-file limit of ${maxBytes} (--max-file-bytes). Nothing was copied.`);
        }
        // One byte more than the size it reported, to notice a file that grows (or a pseudo-file that
        // reports a size it does not have) instead of copying part of it.
        const buffer = Buffer.alloc(info.size + 1);
        let length = 0;
        for (;;) {
            const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
            if (bytesRead === 0)
                break;
            length += bytesRead;
            if (length === buffer.length) {
                throw new PyodideMcpError('PATH_DENIED', `Host file ${real} changed size while it was being read; nothing was copied. Try again once it is no longer being written.`);
            }
        }
        return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
    }
    finally {
        await handle.close();
    }
}
/**
 * Writes `data` to `real` (a path returned by {@link checkHostPath} for 'write'), creating a regular
 * file, or replacing one only when `overwrite` is true. Nothing but a regular file at the checked path is
 * ever truncated or written: the file is opened without O_TRUNC and without following a symlink, the
 * handle is checked, and only then truncated and written.
 */
export async function writeHostFile(real, data, overwrite) {
    const flags = constants.O_WRONLY | constants.O_CREAT | OPEN_SAFELY | (overwrite ? 0 : constants.O_EXCL);
    const handle = await openChecked(real, flags);
    try {
        if (overwrite)
            await handle.truncate(0);
        await handle.writeFile(data);
    }
    finally {
        await handle.close();
    }
}
/** Opens `real` with `flags`, then checks that the handle is a regular file at that very path. */
async function openChecked(real, flags) {
    let handle;
    try {
        handle = await open(real, flags, 0o666);
    }
    catch (error) {
        const code = error.code;
        if (code === 'EEXIST')
            throw new PyodideMcpError('FILE_EXISTS', `Host file ${real} already exists; pass overwrite: true to replace it.`);
        if (code === 'ELOOP')
            throw new PyodideMcpError('PATH_DENIED', `Host path ${real} is a symlink; symlinks are not followed here. Give the path of the file itself.`);
        if (code === 'ENOENT')
            throw new PyodideMcpError('FILE_NOT_FOUND', `Host file ${real} no longer exists.`);
        if (code === 'EISDIR' || code === 'ENXIO')
            throw new PyodideMcpError('NOT_A_FILE', `Host path ${real} is not a regular file; only regular files are copied.`);
        throw error;
    }
    try {
        const info = await handle.stat();
        // Security: only regular files; a FIFO, socket or device is never read or written (and was not
        // truncated: the open did not ask for it).
        if (!info.isFile())
            throw new PyodideMcpError('NOT_A_FILE', `Host path ${real} is not a regular file; only regular files are copied.`);
        // Security: a directory on the checked path may have been swapped for a symlink between the check and
        // the open; the kernel's name for the open file must still be the checked path (Linux; where
        // /proc/self/fd is missing, the checks above stand alone).
        const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
        if (opened !== null && opened !== real) {
            throw new PyodideMcpError('PATH_DENIED', `Host path ${real} changed while it was being opened (it led to ${opened} instead); refused. Try again once nothing is moving files there.`);
        }
        return handle;
    }
    catch (error) {
        await handle.close();
        throw error;
    }
}
/** True when `path` is `dir` or below it (no prefix tricks: /data2 is not inside /data). */
export function isInside(path, dir) {
    let realDir;
    try {
        realDir = realpathSync(dir);
    }
    catch {
        return false;
    }
    const rel = relative(realDir, path);
    return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}
