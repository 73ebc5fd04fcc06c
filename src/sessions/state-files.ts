/**
 * The file operations of the state directory (--state-dir), each safe against what another process may have left
 * there: nothing is followed through a symbolic link (lstat, O_NOFOLLOW), whole files are replaced atomically (temp
 * file + rename), and what is read back must be a regular file of this user's, writable by no one else.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { untrustedReason } from '../python/user-cache.js';

/** Writes `name` in `dir` atomically: a fresh temp file (never through a link), then a rename over the old one. */
export async function writeAtomic(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  const temp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(data);
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, join(dir, name));
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

/**
 * Appends a line (with its newline) to a file, creating it 0600, never through a link. A line torn by a crash
 * mid-append is ended first, so that it costs only its own line, not this one too. Returns the file's size after.
 */
export async function appendLine(path: string, line: string): Promise<number> {
  // O_APPEND without following a link: appendFile would follow one. Read too, to look at the last byte.
  const handle = await open(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    const before = (await handle.stat()).size;
    const last = Buffer.alloc(1);
    if (before > 0 && (await handle.read(last, 0, 1, before - 1)).bytesRead === 1 && last[0] !== 0x0a) await handle.appendFile('\n');
    await handle.appendFile(line);
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** A session directory must be a real directory (not a link), this user's, writable by no one else. */
export async function checkDir(dir: string): Promise<void> {
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
  const problem = untrustedReason(info, dir);
  if (problem) throw new Error(problem);
}

/** A regular file's bytes, up to `max` (null when missing, a link, larger, another user's or writable by others). */
export async function readRegular(path: string, max: number): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info: Stats = await handle.stat();
    if (!info.isFile() || info.size > max || untrustedReason(info, path)) return null;
    return new Uint8Array(await handle.readFile());
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
