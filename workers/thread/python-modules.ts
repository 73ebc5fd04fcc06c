/**
 * The session's Python code (the files of workers/python/), written into the interpreter's file system at boot and
 * imported from there like any module: the harness package and our matplotlib backend.
 *
 * Security: the harness package is written and imported before any user code runs, from a directory appended to
 * sys.path (nothing of the standard library's or the user's is shadowed by ours), and the worker keeps its `entry`:
 * user code that later edits these files, puts a same-named module earlier on sys.path (the workspace is) or rebinds
 * the package's names cannot redirect the worker. The harness lives in the user's realm either way (the supervisor
 * checks every reply). The backend is imported by matplotlib when pyplot first is, as before the split: a user's
 * own pyodide_mcp_backend.py in the workspace replaces it, for their own session's figures only.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EmscriptenFS, PythonRuntime } from './runtime/types.js';

/** Where the modules are written in the session's file system. */
const MODULES_DIR = '/lib/pyodide_mcp';
/** The harness's package; the worker calls its `entry`. */
const HARNESS_PACKAGE = 'pyodide_mcp_harness';
/** The notebook-syntax package, imported by the harness for a cell that uses the syntax. */
const NOTEBOOK_PACKAGE = 'pyodide_mcp_notebook';

/** Each file of workers/python/ → where it is written under MODULES_DIR. Adding a module is one line here. */
const PYTHON_MODULES: Readonly<Record<string, string>> = {
  'harness.py': `${HARNESS_PACKAGE}/__init__.py`,
  'cell.py': `${HARNESS_PACKAGE}/cell.py`,
  'cell_code.py': `${HARNESS_PACKAGE}/cell_code.py`,
  'streams.py': `${HARNESS_PACKAGE}/streams.py`,
  'tasks.py': `${HARNESS_PACKAGE}/tasks.py`,
  'display.py': `${HARNESS_PACKAGE}/display.py`,
  'environment.py': `${HARNESS_PACKAGE}/environment.py`,
  'packages.py': `${HARNESS_PACKAGE}/packages.py`,
  'namespace_ops.py': `${HARNESS_PACKAGE}/namespace_ops.py`,
  'value_facts.py': `${HARNESS_PACKAGE}/value_facts.py`,
  'import_hooks.py': `${HARNESS_PACKAGE}/import_hooks.py`,
  'failed_loads.py': `${HARNESS_PACKAGE}/failed_loads.py`,
  'rich_output.py': `${HARNESS_PACKAGE}/rich_output.py`,
  // Not Python: the script every Plotly chart file ends with (rich_output.py reads it; src/view/plotly-scripts.ts hashes it).
  'plotly_chart.js': `${HARNESS_PACKAGE}/plotly_chart.js`,
  'sandbox_hints.py': `${HARNESS_PACKAGE}/sandbox_hints.py`,
  // IPython cell syntax (magics, `!` commands): imported only by a cell that may use it (cell.py).
  'notebook_package.py': `${NOTEBOOK_PACKAGE}/__init__.py`,
  'notebook_syntax.py': `${NOTEBOOK_PACKAGE}/notebook_syntax.py`,
  'magics.py': `${NOTEBOOK_PACKAGE}/magics.py`,
  'magic_info.py': `${NOTEBOOK_PACKAGE}/magic_info.py`,
  'timing.py': `${NOTEBOOK_PACKAGE}/timing.py`,
  'pip_magic.py': `${NOTEBOOK_PACKAGE}/pip_magic.py`,
  'autoreload.py': `${NOTEBOOK_PACKAGE}/autoreload.py`,
  'shell_commands.py': `${NOTEBOOK_PACKAGE}/shell_commands.py`,
  'shell_args.py': `${NOTEBOOK_PACKAGE}/shell_args.py`,
  'shell_builtins.py': `${NOTEBOOK_PACKAGE}/shell_builtins.py`,
  'shell_file_ops.py': `${NOTEBOOK_PACKAGE}/shell_file_ops.py`,
  'shell_archives.py': `${NOTEBOOK_PACKAGE}/shell_archives.py`,
  // matplotlib imports it by this name (MPLBACKEND=module://pyodide_mcp_backend, set by environment.py).
  'backend.py': 'pyodide_mcp_backend.py',
};

/**
 * Writes the modules, imports the harness (which sets the session's environment up) and returns its entry point:
 * a JSON request in, a JSON reply out. `harnessPath`: workers/python/harness.py on the host; the other files are
 * read beside it.
 */
export function loadHarness(runtime: PythonRuntime, harnessPath: string): (requestJson: string) => string {
  const sourceDir = dirname(harnessPath);
  for (const [file, target] of Object.entries(PYTHON_MODULES)) {
    const path = `${MODULES_DIR}/${target}`;
    makeDirectories(runtime.FS, path.slice(0, path.lastIndexOf('/')));
    runtime.FS.writeFile(path, readFileSync(join(sourceDir, file)));
  }
  // One expression, no statement: the runtime evaluates it in __main__'s globals, where user code must find no new name.
  return runtime.bindFunction(
    `(lambda sys: (None if '${MODULES_DIR}' in sys.path else sys.path.append('${MODULES_DIR}'),` +
      ` __import__('${HARNESS_PACKAGE}').entry)[-1])(__import__('sys'))`,
  );
}

function makeDirectories(FS: EmscriptenFS, path: string): void {
  let directory = '';
  for (const part of path.split('/').slice(1)) {
    directory += `/${part}`;
    try {
      FS.mkdir(directory);
    } catch {
      // it exists (a failure of any other kind shows at the file's write)
    }
  }
}
