/**
 * The session's workspace inside the worker: the directory user files live in, the change set of each
 * call (so the host can mirror files without asking the worker again), confined file operations for
 * the file tools, and the file quota enforced inside Emscripten's FS so that Python sees an OSError at
 * the write that goes past it, and nothing already stored is touched.
 */
import type { EmscriptenFS } from './runtime/types.js';
import type { FileLimits, WorkerFileChanges } from '../src/contract.js';
import { WORKSPACE } from '../src/paths.js';


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

const O_APPEND = 0o2000;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

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
  /** Files written while the quota was active, with the size each had when first touched. */
  private readonly tracked = new Map<object, number>();
  private trackedBytes = 0;
  private enforcing = false;

  constructor(
    private readonly FS: EmscriptenFS,
    private readonly limits: FileLimits,
    private readonly errno: Errnos,
  ) {
    if (!this.exists(WORKSPACE)) FS.mkdir(WORKSPACE);
    this.installQuota();
  }

  /** Runs user-originated work (a cell, a write_file) with the quota enforced. */
  enforced<T>(work: () => T): T {
    this.enforcing = true;
    try {
      return work();
    } finally {
      this.enforcing = false;
    }
  }

  /** Bytes and files that user work has added so far, for error messages and listings. */
  usage(): { bytes: number; files: number } {
    return { bytes: this.trackedBytes, files: this.tracked.size };
  }

  /**
   * Files written or changed in the workspace since the last call, with their bytes, and files deleted.
   * One walk of the workspace only (not the whole filesystem); an idle workspace costs a readdir.
   */
  collectChanges(): WorkerFileChanges {
    const now = new Map<string, string>();
    const written: WorkerFileChanges['written'] = [];
    const walk = (dir: string) => {
      for (const name of this.FS.readdir(dir)) {
        if (name === '.' || name === '..') continue;
        const path = `${dir}/${name}`;
        const st = this.FS.lstat(path);
        if (this.FS.isDir(st.mode)) walk(path);
        else if (this.FS.isFile(st.mode)) {
          const mtimeMs = +st.mtime;
          const stamp = `${mtimeMs}:${st.size}`;
          now.set(path, stamp);
          if (this.seen.get(path) !== stamp) written.push({ path: relative(path), size: st.size, data: this.FS.readFile(path), mtimeMs });
        }
        // Symlinks are not mirrored: what they point at is either in the workspace already or not the user's file.
      }
    };
    walk(WORKSPACE);
    const deleted = [...this.seen.keys()].filter((path) => !now.has(path)).map(relative);
    this.seen = now;
    return { written, deleted };
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
      throw new WorkspaceError('PATH_DENIED', `${JSON.stringify(rel)} leads outside the session workspace (through a symlink); nothing was changed.`);
    }
    return abs;
  }

  /** Writes (or appends) a file, creating parent directories; refuses to overwrite unless asked. */
  writeFile(rel: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): void {
    const abs = this.resolve(rel);
    if (this.exists(abs)) {
      if (this.FS.isDir(this.FS.stat(abs).mode)) throw new WorkspaceError('NOT_A_FILE', `${JSON.stringify(rel)} is a directory.`);
      if (!options.append && !options.overwrite) {
        throw new WorkspaceError('FILE_EXISTS', `${JSON.stringify(rel)} already exists; pass overwrite: true to replace it, or append: true to add to it.`);
      }
    }
    this.mkdirs(abs.slice(0, abs.lastIndexOf('/')));
    try {
      this.enforced(() => this.FS.writeFile(abs, data, { flags: options.append ? 'a' : 'w' }));
    } catch (error) {
      const code = (error as { errno?: number }).errno;
      if (code === this.errno.EFBIG) throw this.quotaError(`a file may hold at most ${this.limits.maxFileBytes} bytes`);
      if (code === this.errno.ENOSPC) throw this.quotaError(`the session may store at most ${this.limits.maxSessionBytes} bytes (${this.trackedBytes} in use)`);
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

  /**
   * Wraps Emscripten's FS.write, FS.mknod, FS.unlink and FS.truncate so that, while user work runs, a
   * file larger than maxFileBytes (EFBIG), more than maxSessionBytes in all (ENOSPC), or more than
   * maxFiles files (EDQUOT) fails at the write itself. Files anywhere in the virtual FS count (a quota
   * only on /workspace would leave /tmp unbounded), package installs do not.
   * Why here: MEMFS keeps file contents in JS typed arrays outside the WebAssembly heap, so without this
   * a loop writing to a file could grow the worker's memory without bound.
   */
  private installQuota(): void {
    const FS = this.FS;
    const { errno, limits, tracked } = this;
    const fail = (code: number) => {
      throw new FS.ErrnoError(code);
    };
    const track = (node: { usedBytes?: number }) => {
      if (!tracked.has(node)) tracked.set(node, node.usedBytes ?? 0);
    };
    const write = FS.write;
    FS.write = (stream: any, buffer: any, offset: number, length: number, position?: number, canOwn?: boolean) => {
      const node = stream.node;
      if (this.enforcing && length > 0 && FS.isFile(node.mode)) {
        const used = node.usedBytes ?? 0;
        const at = stream.flags & O_APPEND ? used : (position ?? stream.position);
        const grows = Math.max(0, at + length - used);
        if (at + length > limits.maxFileBytes) fail(errno.EFBIG);
        if (this.trackedBytes + grows > limits.maxSessionBytes) fail(errno.ENOSPC);
        track(node);
        const written = write.call(FS, stream, buffer, offset, length, position, canOwn);
        this.trackedBytes += (node.usedBytes ?? 0) - used;
        return written;
      }
      return write.call(FS, stream, buffer, offset, length, position, canOwn);
    };
    const mknod = FS.mknod;
    FS.mknod = (path: string, mode: number, dev: number) => {
      if (this.enforcing && (mode & S_IFMT) === S_IFREG && tracked.size >= limits.maxFiles) fail(errno.EDQUOT);
      const node = mknod.call(FS, path, mode, dev);
      if (this.enforcing && (mode & S_IFMT) === S_IFREG) track(node);
      return node;
    };
    const unlink = FS.unlink;
    FS.unlink = (path: string) => {
      let node: { usedBytes?: number } | undefined;
      try {
        node = FS.lookupPath(path, { follow: false }).node;
      } catch {
        // unlink reports the missing file itself
      }
      unlink.call(FS, path);
      if (node && tracked.has(node)) {
        this.trackedBytes -= (node.usedBytes ?? 0) - tracked.get(node)!;
        tracked.delete(node);
      }
    };
    for (const name of ['truncate', 'ftruncate'] as const) {
      const original = FS[name];
      FS[name] = (target: string | number | object, length: number) => {
        // Emscripten passes an fd (ftruncate), a path, or (inside FS.open with O_TRUNC) the node itself.
        const node =
          typeof target === 'number' ? FS.getStream(target)?.node : typeof target === 'string' ? FS.lookupPath(target, { follow: true }).node : target;
        const used = node?.usedBytes ?? 0;
        if (this.enforcing && node && length > used) {
          if (length > limits.maxFileBytes) fail(errno.EFBIG);
          if (this.trackedBytes + length - used > limits.maxSessionBytes) fail(errno.ENOSPC);
          track(node);
        }
        const result = original.call(FS, target, length);
        if (node && tracked.has(node)) this.trackedBytes += (node.usedBytes ?? 0) - used;
        return result;
      };
    }
  }
}

function relative(abs: string): string {
  return abs === WORKSPACE ? '' : abs.slice(WORKSPACE.length + 1);
}
