/**
 * The session's file quota, enforced inside Emscripten's FS so that Python sees an OSError at the write that goes
 * past it, and nothing already stored is touched (why in the FS: see install()).
 *
 * Security: the quota is enforced at all times; only the worker's own package installs (`trusted()`) skip it,
 * only for files under the interpreter's library directories, and only for as many bytes and files as the archives
 * being installed hold. Before, it held only while a cell ran, and a write from a timer callback after the cell stored
 * a 300 MB file past a 50 MB limit.
 */
import type { FileLimits } from '../../src/wire/contract.js';
import type { Footprint } from './archive-footprint.js';
import type { EmscriptenFS } from './runtime/types.js';
import type { Errnos } from './workspace.js';

const O_APPEND = 0o2000;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Where package installs write (site-packages, shared libraries): the only files a trusted install may add unquota'd. */
const PACKAGE_DIRS = ['/lib/', '/usr/lib/'];
// Captured before user code exists: it can replace the realm's prototypes and run while the worker installs a package.
const startsWith = String.prototype.startsWith;
const max = Math.max;
const defineProperties = Object.defineProperties;

export class FileQuota {
  /** Files written while the quota was active, with the size each had when first touched. */
  private readonly tracked = new Map<object, number>();
  private trackedBytes = 0;
  /** Nesting of trusted installs (package loading, wheels) running now. */
  private trustedDepth = 0;
  /** What the trusted installs running now may still write under PACKAGE_DIRS without counting. */
  private exemptBytes = 0;
  private exemptFiles = 0;

  /** Installs the quota on `FS` (for good: the wrapped functions are made read-only). */
  constructor(
    private readonly FS: EmscriptenFS,
    private readonly limits: FileLimits,
    private readonly errno: Errnos,
  ) {
    this.install();
  }

  /** Bytes the session's files hold now, as the quota counts them. */
  get usedBytes(): number {
    return this.trackedBytes;
  }

  /**
   * Runs the worker's own package installation with the quota lifted for new files under PACKAGE_DIRS only, and for
   * at most `footprint` (what the archives being installed hold, archive-footprint.ts): a package may be larger than
   * a session's quota. Everything else stays enforced even meanwhile, /tmp included: the modern runtime's loader
   * writes no temporary copy of an archive there (runtime/package-unpack.ts), so no other directory needs lifting.
   * Security: user code can run during an install (an audit hook, a module of the loader it patched, a JavaScript
   * prototype it replaced). Whatever it writes there counts once the footprint is used up, and a file it made before
   * (tracked) always counts: measured before the bound, an audit hook stored 4.5 MB under /lib past a 2 MB quota
   * while a 1 kB wheel installed, and could do so at every install.
   */
  async trusted<T>(work: () => Promise<T> | T, footprint: Footprint): Promise<T> {
    this.trustedDepth++;
    this.exemptBytes += footprint.bytes;
    this.exemptFiles += footprint.files;
    try {
      return await work();
    } finally {
      if (--this.trustedDepth === 0) {
        this.exemptBytes = 0;
        this.exemptFiles = 0;
      }
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
   * Wraps Emscripten's FS.write, FS.mknod, FS.unlink and FS.truncate so that a file larger than
   * maxFileBytes (EFBIG), more than maxSessionBytes in all (ENOSPC), or more than maxFiles files (EDQUOT)
   * fails at the write itself. Files anywhere in the virtual FS count (a quota only on /workspace would
   * leave /tmp unbounded), package files written by a trusted install do not.
   * Why here: MEMFS keeps file contents in JS typed arrays outside the WebAssembly heap, so without this
   * a loop writing to a file could grow the worker's memory without bound.
   * Security: the wrapped functions are made read-only on FS, so user code cannot swap them out.
   */
  private install(): void {
    const FS = this.FS;
    const { errno, limits, tracked } = this;
    const fail = (code: number, why: string) => {
      const error = new FS.ErrnoError(code);
      // A write made from JavaScript (a buffer's to_file, FS.writeFile) hands the error to Pyodide unconverted: it
      // then said "A value of type object with tag [object Object] was thrown" (what a failed install logged), or
      // "[object Object]" (a JsException's text is the error's toString). A system call turns it into OSError by its
      // errno, as before.
      const text = `ErrnoError: file quota: ${why}`;
      defineProperties(error, {
        message: { value: `file quota: ${why}` },
        stack: { value: text },
        toString: { value: () => text },
      });
      throw error;
    };
    const tooLarge = () => fail(errno.EFBIG, `a file may hold at most ${limits.maxFileBytes} bytes (--max-file-bytes)`);
    const noSpace = () =>
      fail(
        errno.ENOSPC,
        `the session may store at most ${limits.maxSessionBytes} bytes, ${this.trackedBytes} in use (--max-session-bytes)`,
      );
    const track = (node: { usedBytes?: number }) => {
      if (!tracked.has(node)) tracked.set(node, node.usedBytes ?? 0);
    };
    const getPath = FS.getPath;
    const pathOf = (node: unknown) => () => String(getPath.call(FS, node));
    /** Whether `grows` more bytes of this package file fit in the trusted installs' footprint (and takes them). */
    const exemptGrowth = (node: object, grows: number) => {
      if (grows > this.exemptBytes || tracked.has(node) || !this.exempt(pathOf(node))) return false;
      this.exemptBytes -= grows;
      return true;
    };
    const write = FS.write;
    FS.write = (stream: any, buffer: any, offset: number, length: number, position?: number, canOwn?: boolean) => {
      const node = stream.node;
      if (length > 0 && FS.isFile(node.mode)) {
        const used = node.usedBytes ?? 0;
        const at = stream.flags & O_APPEND ? used : (position ?? stream.position);
        const grows = max(0, at + length - used);
        if (exemptGrowth(node, grows)) return write.call(FS, stream, buffer, offset, length, position, canOwn);
        if (at + length > limits.maxFileBytes) tooLarge();
        if (this.trackedBytes + grows > limits.maxSessionBytes) noSpace();
        track(node);
        const written = write.call(FS, stream, buffer, offset, length, position, canOwn);
        this.trackedBytes += (node.usedBytes ?? 0) - used;
        return written;
      }
      return write.call(FS, stream, buffer, offset, length, position, canOwn);
    };
    const mknod = FS.mknod;
    FS.mknod = (path: string, mode: number, dev: number) => {
      let counted = (mode & S_IFMT) === S_IFREG;
      if (counted && this.exemptFiles > 0 && this.exempt(() => String(path))) {
        this.exemptFiles--;
        counted = false;
      }
      if (counted && tracked.size >= limits.maxFiles)
        fail(errno.EDQUOT, `the session may hold at most ${limits.maxFiles} files (--max-files)`);
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
        if (node && length > used && !exemptGrowth(node, length - used)) {
          if (length > limits.maxFileBytes) tooLarge();
          if (this.trackedBytes + length - used > limits.maxSessionBytes) noSpace();
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
