/**
 * Makes Emscripten's MEMFS keep each directory's entries in an object without a prototype.
 *
 * Security: MEMFS stores a directory's entries as `node.contents[name] = child` in a plain `{}`. A file named
 * `__proto__` therefore did not become an entry: it replaced the prototype of that map with the file's node. The
 * file was missing from `os.listdir` and from the host's mirror (so the file tools said FILE_NOT_FOUND), the
 * node's own properties became inherited "entries", so the directory could never be removed again (ENOTEMPTY),
 * and an unlinked `__proto__` stayed reachable from the map, its bytes held after the quota had released them
 * (one per directory, directories being free: memory past --max-session-bytes). On the legacy runtime a file
 * named `hasOwnProperty` shadowed the method its readdir calls, and the next listing aborted the interpreter.
 * With `Object.create(null)` maps every name is an own entry like any other, in both runtimes.
 */
import type { EmscriptenFS } from './runtime/types.js';

// Captured before user code exists: it can replace the realm's intrinsics later.
const create = Object.create;
const keys = Object.keys;
const defineProperty = Object.defineProperty;
const apply = Reflect.apply;

interface MemfsNode {
  mode: number;
  contents: Record<string, MemfsNode> | null;
  node_ops: object;
  mounted?: { root: MemfsNode } | null;
}

/** Must run before any user code, and before any directory whose entries matter is created by untrusted input. */
export function useNullPrototypeDirectories(FS: EmscriptenFS): void {
  const MEMFS = FS.filesystems?.MEMFS;
  const dirOps = MEMFS?.ops_table?.dir?.node;
  if (!MEMFS || !dirOps || typeof MEMFS.createNode !== 'function') {
    // Fail closed: a runtime whose MEMFS looks different would silently keep the bug.
    throw new Error("this runtime's MEMFS is not the one the worker knows (FS.filesystems.MEMFS.ops_table.dir)");
  }
  const isDir = (mode: number) => FS.isDir(mode);

  // Directories that exist already (/, /tmp, /home, the standard library, mount points' roots).
  const convert = (node: MemfsNode): void => {
    if (node.node_ops !== dirOps || !node.contents) return;
    const old = node.contents;
    const names = keys(old);
    const fresh = create(null) as Record<string, MemfsNode>;
    for (let i = 0; i < names.length; i++) fresh[names[i]!] = old[names[i]!]!;
    node.contents = fresh;
    for (let i = 0; i < names.length; i++) {
      const child = fresh[names[i]!]!;
      if (child.mounted) convert(child.mounted.root);
      if (isDir(child.mode)) convert(child);
    }
  };
  convert(FS.root);

  // Directories created from now on. MEMFS calls `MEMFS.createNode` by property, so the wrapper sees every one.
  const createNode = MEMFS.createNode;
  const wrapped = function (this: unknown, parent: MemfsNode | null, name: string, mode: number, dev: number): MemfsNode {
    const node = apply(createNode, MEMFS, [parent, name, mode, dev]) as MemfsNode;
    if (isDir(node.mode) && node.node_ops === dirOps) node.contents = create(null) as Record<string, MemfsNode>;
    return node;
  };
  // readdir: the legacy runtime's calls `node.contents.hasOwnProperty(key)`, which a map without a prototype
  // lacks; both runtimes get the same own-keys listing.
  const readdir = (node: MemfsNode): string[] => {
    const entries = ['.', '..'];
    const names = keys(node.contents ?? {});
    for (let i = 0; i < names.length; i++) entries[entries.length] = names[i]!;
    return entries;
  };
  // Read-only, like the quota's wrappers on FS (workers/thread/file-quota.ts): user code must not swap them back.
  const pin = (target: object, name: string, value: unknown) =>
    defineProperty(target, name, { value, writable: false, configurable: false, enumerable: true });
  pin(MEMFS, 'createNode', wrapped);
  pin(MEMFS.node_ops, 'readdir', readdir);
  pin(dirOps, 'readdir', readdir);
}
