/**
 * The session's workspace inside the worker: the directory user files live in, the change set of each
 * call (so the host can mirror files without asking the worker again), and confined file operations for
 * the file tools. The file quota it installs (file-quota.ts) holds at all times.
 */
import type { EmscriptenFS } from './runtime/types.js';
import type { FileLimits, WorkerFileChanges } from '../../src/wire/contract.js';
import { WORKSPACE } from '../../src/wire/limits.js';
import type { Footprint } from './archive-footprint.js';
import { FileQuota } from './file-quota.js';
import { useNullPrototypeDirectories } from './memfs-directories.js';

/** errno values as this interpreter's libc numbers them (read from Python's errno module at boot). */
export interface Errnos {
  ENOSPC: number;
  EFBIG: number;
  EDQUOT: number;
  ENOENT: number;
  EEXIST: number;
  EISDIR: number;
  EACCES: number;
}

/**
 * The workspace holds more than the limits allow, which writes through the file system cannot do: its memory
 * was changed directly (e.g. a MEMFS node's `contents` and `usedBytes` set from Python). The session must end.
 */
export class WorkspaceViolation extends Error {}

/** An error the file tools report as-is (the host turns it into a tool error with this code). */
export class WorkspaceError extends Error {
  constructor(
    readonly code: 'PATH_DENIED' | 'FILE_NOT_FOUND' | 'FILE_EXISTS' | 'QUOTA_EXCEEDED' | 'NOT_A_FILE',
    message: string,
  ) {
    super(message);
  }
}

export class Workspace {
  /** path → "mtime:size" at the last scan; a difference means the file was written. */
  private seen = new Map<string, string>();
  private readonly quota: FileQuota;

  constructor(
    private readonly FS: EmscriptenFS,
    private readonly limits: FileLimits,
    private readonly errno: Errnos,
  ) {
    // Before the workspace exists and before any user code: a file named `__proto__` must be an entry like any other.
    useNullPrototypeDirectories(FS);
    if (!this.exists(WORKSPACE)) FS.mkdir(WORKSPACE);
    this.quota = new FileQuota(FS, limits, errno);
  }

  /**
   * Runs the worker's own package installation, with the quota lifted for package files only and for at most what
   * the archives being installed hold (FileQuota.trusted).
   */
  trusted<T>(work: () => Promise<T> | T, footprint: Footprint): Promise<T> {
    return this.quota.trusted(work, footprint);
  }

  /**
   * Files written or changed in the workspace since the last call, with their bytes, and files deleted.
   * One walk of the workspace only (not the whole filesystem); an idle workspace costs a readdir.
   * Security: sizes are checked against the limits before any byte is read, and each file is read into a
   * buffer of the size that was checked; a workspace over the limits throws WorkspaceViolation.
   */
  collectChanges(): WorkerFileChanges {
    const now = new Map<string, string>();
    const changed: { path: string; size: number; mtimeMs: number }[] = [];
    let files = 0;
    let bytes = 0;
    const walk = (dir: string) => {
      for (const name of this.FS.readdir(dir)) {
        if (name === '.' || name === '..') continue;
        const path = `${dir}/${name}`;
        const st = this.FS.lstat(path);
        if (this.FS.isDir(st.mode)) walk(path);
        else if (this.FS.isFile(st.mode)) {
          const size = st.size;
          files++;
          bytes += size;
          if (!(size >= 0 && size <= this.limits.maxFileBytes)) {
            this.violation(
              `${relative(path)} holds ${size} bytes, over the limit of ${this.limits.maxFileBytes} bytes per file (--max-file-bytes)`,
            );
          }
          if (bytes > this.limits.maxSessionBytes) {
            this.violation(
              `its files hold more than ${this.limits.maxSessionBytes} bytes in all, the limit per session (--max-session-bytes)`,
            );
          }
          if (files > this.limits.maxFiles)
            this.violation(`it holds more than ${this.limits.maxFiles} files, the limit per session (--max-files)`);
          const mtimeMs = +st.mtime;
          const stamp = `${mtimeMs}:${size}`;
          now.set(path, stamp);
          if (this.seen.get(path) !== stamp) changed.push({ path, size, mtimeMs });
        }
        // Symlinks are not mirrored: what they point at is either in the workspace already or not the user's file.
      }
    };
    walk(WORKSPACE);
    const written = changed.map(({ path, size, mtimeMs }) => {
      const data = this.readExactly(path, size);
      return { path: relative(path), size: data.byteLength, data, mtimeMs };
    });
    const deleted = [...this.seen.keys()].filter((path) => !now.has(path)).map(relative);
    this.seen = now;
    return { written, deleted };
  }

  private violation(why: string): never {
    throw new WorkspaceViolation(
      `The session's workspace exceeds its file quota: ${why}. Writes through the file system are refused at that limit, ` +
        `so the virtual file system's memory was changed directly; the session has ended.`,
    );
  }

  /** At most `size` bytes of a file, into a buffer of that size (whatever the file's node claims meanwhile). */
  private readExactly(path: string, size: number): Uint8Array {
    const data = new Uint8Array(size);
    const stream = this.FS.open(path, 0);
    try {
      let done = 0;
      while (done < size) {
        const n = this.FS.read(stream, data, done, size - done, done);
        if (!(n > 0)) break;
        done += n;
      }
      return done === size ? data : data.slice(0, done);
    } finally {
      this.FS.close(stream);
    }
  }

  /**
   * Resolves a workspace-relative path (already normalised by the host) to an absolute one, and checks
   * through Emscripten's own lookup that no symlink on the way leads outside the workspace.
   */
  resolve(rel: string): string {
    const abs = rel === '' ? WORKSPACE : `${WORKSPACE}/${rel}`;
    // Security: resolve the deepest existing ancestor with symlinks followed; it must stay inside.
    let probe = abs;
    while (!this.exists(probe)) probe = probe.slice(0, probe.lastIndexOf('/')) || '/';
    let real: string;
    try {
      real = this.FS.lookupPath(probe, { follow: true }).path;
    } catch {
      real = '(a dangling symlink)';
    }
    if (real !== WORKSPACE && !real.startsWith(WORKSPACE + '/')) {
      throw new WorkspaceError(
        'PATH_DENIED',
        `${JSON.stringify(rel)} leads outside the session workspace (through a symlink); nothing was changed.`,
      );
    }
    return abs;
  }

  /** Writes (or appends) a file, creating parent directories; refuses to overwrite unless asked. */
  writeFile(rel: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): void {
    const abs = this.resolve(rel);
    if (this.exists(abs)) {
      if (this.FS.isDir(this.FS.stat(abs).mode)) throw new WorkspaceError('NOT_A_FILE', `${JSON.stringify(rel)} is a directory.`);
      if (!options.append && !options.overwrite) {
        throw new WorkspaceError(
          'FILE_EXISTS',
          `${JSON.stringify(rel)} already exists; pass overwrite: true to replace it, or append: true to add to it.`,
        );
      }
    }
    this.mkdirs(abs.slice(0, abs.lastIndexOf('/')));
    try {
      this.FS.writeFile(abs, data, { flags: options.append ? 'a' : 'w' });
    } catch (error) {
      const code = (error as { errno?: number }).errno;
      if (code === this.errno.EFBIG) throw this.quotaError(`a file may hold at most ${this.limits.maxFileBytes} bytes`);
      if (code === this.errno.ENOSPC)
        throw this.quotaError(`the session may store at most ${this.limits.maxSessionBytes} bytes (${this.quota.usedBytes} in use)`);
      if (code === this.errno.EDQUOT) throw this.quotaError(`the session may hold at most ${this.limits.maxFiles} files`);
      throw error;
    }
  }

  private quotaError(why: string): WorkspaceError {
    return new WorkspaceError('QUOTA_EXCEEDED', `Not written: ${why}. Files already stored are unchanged; delete some to make room.`);
  }

  /** Deletes a file or an empty directory. */
  delete(rel: string): void {
    const abs = this.resolve(rel);
    if (!this.exists(abs)) throw new WorkspaceError('FILE_NOT_FOUND', `${JSON.stringify(rel)} does not exist in the session workspace.`);
    if (this.FS.isDir(this.FS.lstat(abs).mode)) this.FS.rmdir(abs);
    else this.FS.unlink(abs);
  }

  /** Reads a file (for run_file). */
  readText(rel: string): string {
    const abs = this.resolve(rel);
    if (!this.exists(abs)) throw new WorkspaceError('FILE_NOT_FOUND', `${JSON.stringify(rel)} does not exist in the session workspace.`);
    if (!this.FS.isFile(this.FS.stat(abs).mode)) throw new WorkspaceError('NOT_A_FILE', `${JSON.stringify(rel)} is not a file.`);
    return new TextDecoder().decode(this.FS.readFile(abs));
  }

  private exists(path: string): boolean {
    try {
      this.FS.lstat(path);
      return true;
    } catch {
      return false;
    }
  }

  private mkdirs(dir: string): void {
    if (dir === '' || this.exists(dir)) return;
    this.mkdirs(dir.slice(0, dir.lastIndexOf('/')));
    this.FS.mkdir(dir);
  }
}

function relative(abs: string): string {
  return abs === WORKSPACE ? '' : abs.slice(WORKSPACE.length + 1);
}
