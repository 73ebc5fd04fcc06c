/**
 * The session's workspace inside the worker: the directory user files live in, the change set of each
 * call (so the host can mirror files without asking the worker again), confined file operations for
 * the file tools, and the file quota enforced inside Emscripten's FS so that Python sees an OSError at
 * the write that goes past it, and nothing already stored is touched.
 *
 * Security: the quota is enforced at all times; only the worker's own package installs (`trusted()`) skip it,
 * and only for files under the interpreter's library directories. Before, it held only while a cell ran, and a
 * write from a timer callback after the cell stored a 300 MB file past a 50 MB limit.
 */
import type { EmscriptenFS } from './runtime/types.js';
import type { FileLimits, WorkerFileChanges } from '../../src/wire/contract.js';
import { WORKSPACE } from '../../src/wire/limits.js';
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

const O_APPEND = 0o2000;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Where package installs write (site-packages, shared libraries): the only files a trusted install may add unquota'd. */
const PACKAGE_DIRS = ['/lib/', '/usr/lib/'];
// Captured before user code exists: it can replace the realm's prototypes and run while the worker installs a package.
const startsWith = String.prototype.startsWith;

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
  /** Files written while the quota was active, with the size each had when first touched. */
  private readonly tracked = new Map<object, number>();
  private trackedBytes = 0;
  /** Nesting of trusted installs (package loading, wheels) running now. */
  private trustedDepth = 0;

  constructor(
    private readonly FS: EmscriptenFS,
    private readonly limits: FileLimits,
    private readonly errno: Errnos,
  ) {
    // Before the workspace exists and before any user code: a file named `__proto__` must be an entry like any other.
    useNullPrototypeDirectories(FS);
    if (!this.exists(WORKSPACE)) FS.mkdir(WORKSPACE);
    this.installQuota();
  }

  /**
   * Runs the worker's own package installation with the quota lifted for files under PACKAGE_DIRS only: a
   * package may be larger than a session's quota. Everything else stays enforced even meanwhile (user code
   * could still run during it, e.g. through a JavaScript prototype it replaced).
   */
  async trusted<T>(work: () => Promise<T> | T): Promise<T> {
    this.trustedDepth++;
    try {
      return await work();
    } finally {
      this.trustedDepth--;
    }
  }

  /** Is a write to this file exempt from the quota (a trusted install writing a package file)? */
  private exempt(path: () => string): boolean {
    if (this.trustedDepth === 0) return false;
    let abs: string;
    try {
      abs = path();
    } catch {
      return false;
    }
    for (let i = 0; i < PACKAGE_DIRS.length; i++) if (Reflect.apply(startsWith, abs, [PACKAGE_DIRS[i]])) return true;
    return false;
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
        throw this.quotaError(`the session may store at most ${this.limits.maxSessionBytes} bytes (${this.trackedBytes} in use)`);
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
   * Wraps Emscripten's FS.write, FS.mknod, FS.unlink and FS.truncate so that a file larger than
   * maxFileBytes (EFBIG), more than maxSessionBytes in all (ENOSPC), or more than maxFiles files (EDQUOT)
   * fails at the write itself. Files anywhere in the virtual FS count (a quota only on /workspace would
   * leave /tmp unbounded), package files written by a trusted install do not.
   * Why here: MEMFS keeps file contents in JS typed arrays outside the WebAssembly heap, so without this
   * a loop writing to a file could grow the worker's memory without bound.
   * Security: the wrapped functions are made read-only on FS, so user code cannot swap them out.
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
    const getPath = FS.getPath;
    const pathOf = (node: unknown) => () => String(getPath.call(FS, node));
    const write = FS.write;
    FS.write = (stream: any, buffer: any, offset: number, length: number, position?: number, canOwn?: boolean) => {
      const node = stream.node;
      if (length > 0 && FS.isFile(node.mode) && !this.exempt(pathOf(node))) {
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
      const counted = (mode & S_IFMT) === S_IFREG && !this.exempt(() => String(path));
      if (counted && tracked.size >= limits.maxFiles) fail(errno.EDQUOT);
      const node = mknod.call(FS, path, mode, dev);
      if (counted) track(node);
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
          typeof target === 'number'
            ? FS.getStream(target)?.node
            : typeof target === 'string'
              ? FS.lookupPath(target, { follow: true }).node
              : target;
        const used = node?.usedBytes ?? 0;
        if (node && length > used && !this.exempt(pathOf(node))) {
          if (length > limits.maxFileBytes) fail(errno.EFBIG);
          if (this.trackedBytes + length - used > limits.maxSessionBytes) fail(errno.ENOSPC);
          track(node);
        }
        const result = original.call(FS, target, length);
        if (node && tracked.has(node)) this.trackedBytes += (node.usedBytes ?? 0) - used;
        return result;
      };
    }
    for (const name of ['write', 'mknod', 'unlink', 'truncate', 'ftruncate']) {
      Object.defineProperty(FS, name, { value: FS[name], writable: false, configurable: false, enumerable: true });
    }
  }
}

function relative(abs: string): string {
  return abs === WORKSPACE ? '' : abs.slice(WORKSPACE.length + 1);
}
