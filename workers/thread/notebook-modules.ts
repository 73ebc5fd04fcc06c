/**
 * The Python package behind IPython cell syntax (magics, `!` commands): copied at boot into a directory on the
 * session's sys.path, where the harness imports it only for a cell that uses that syntax (workers/python/README.md).
 * Reading and writing these small files costs the boot well under a millisecond; compiling them is left to the first
 * such cell.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EmscriptenFS } from './runtime/types.js';

/** The package's modules, in workers/python/ beside the harness. */
export const NOTEBOOK_MODULES = [
  'notebook_syntax.py',
  'magics.py',
  'magic_info.py',
  'timing.py',
  'pip_magic.py',
  'shell_commands.py',
  'shell_args.py',
  'shell_builtins.py',
  'shell_file_ops.py',
  'shell_archives.py',
] as const;

/** Where the package goes: beside the matplotlib backend, a directory the harness puts on sys.path. */
const PACKAGE_DIR = '/lib/pyodide_mcp/pyodide_mcp_notebook';

export function installNotebookModules(fs: EmscriptenFS, harnessPath: string): void {
  const source = dirname(harnessPath);
  fs.mkdirTree?.(PACKAGE_DIR);
  fs.writeFile(`${PACKAGE_DIR}/__init__.py`, '');
  for (const name of NOTEBOOK_MODULES) fs.writeFile(`${PACKAGE_DIR}/${name}`, readFileSync(join(source, name), 'utf8'));
}
