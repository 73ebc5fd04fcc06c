/**
 * Messages that cross the thread boundary between the host (src/worker-host.ts) and a session
 * worker (workers/session.worker.ts). Both sides import only types from here.
 */

/** The workspace directory inside every session (Python's working directory); the harness names it too. */
export const WORKSPACE = '/workspace';

/** Which Pyodide distribution a worker boots. */
export type RuntimeKind = 'modern' | 'legacy';

/** Passed to the worker as `workerData`. */
export interface WorkerInit {
  runtime: RuntimeKind;
  /** Directory of the distribution's files. */
  distDir: string;
  /** Directory of local wheels (modern runtime), or null. */
  wheelsDir: string | null;
  /** Packages loaded and imported before the worker reports ready. */
  preload: string[];
  /** Absolute path of workers/harness.py. */
  harnessPath: string;
  /** Caps on what user code may store in the session's virtual filesystem. */
  fileLimits: FileLimits;
  /** Formats figures are captured in, e.g. ["png"] or ["png", "svg"]. */
  figureFormats: string[];
  /** Modern runtime: a memory snapshot to boot from (shared, read-only), or null to boot from scratch. */
  snapshot: Uint8Array | null;
  /** Modern runtime: boot in snapshot-making mode and post a `snapshot` message before anything else runs. */
  makeSnapshot: boolean;
  /** Int32Array(1) view target: the host writes 2 (SIGINT) into slot 0 to interrupt Python. */
  interruptBuffer: SharedArrayBuffer;
}

/** Per-session caps on the virtual filesystem. */
export interface FileLimits {
  maxFileBytes: number;
  maxSessionBytes: number;
  maxFiles: number;
}

/** Files written (with their bytes) and deleted in the workspace by one request; paths are workspace-relative. */
export interface FileChanges {
  written: { path: string; data: Uint8Array; mtimeMs: number }[];
  deleted: string[];
}

/** A rich output of a cell (IPython display protocol): an image file in the workspace, or text. */
export interface DisplayOutput {
  mime_type: string;
  /** Workspace-relative path of an image the harness saved (figures, _repr_png_). */
  path?: string;
  /** Text of an HTML, Markdown or LaTeX representation. */
  text?: string;
}

/** Per-call caps on what a reply may carry, in characters. */
export interface OutputLimits {
  stdout: number;
  stderr: number;
  result: number;
  traceback: number;
}

/** What the worker knows about its runtime once booted. */
export interface RuntimeInfo {
  kind: RuntimeKind;
  python: string;
  pyodide: string;
  /** Preloaded packages with versions. */
  packages: Record<string, string>;
  /** Packages this distribution can load offline. */
  available: string[];
  /** Whether the interrupt buffer is wired (false: a timeout must terminate the worker). */
  interruptible: boolean;
  bootMs: number;
}

/** An error as it travels across the boundary: plain data, never a class instance. */
export interface WireError {
  code: string;
  message: string;
  pythonType?: string;
  traceback?: string;
}

/** Characters left out of each capped field; null when nothing was cut. */
export type Truncation = Partial<Record<keyof OutputLimits, number>> | null;

/** The worker's answer to an `execute` request (the host adds session id, timing, files). */
export interface CellOutcome {
  stdout: string;
  stderr: string;
  result: string | null;
  error: { type: string; message: string; traceback: string } | null;
  execution_count: number;
  truncated: Truncation;
  /** Offline packages loaded before the run because the code imports them. */
  loaded_packages: string[];
  /** Figures and rich outputs, in the order they were shown. */
  display: DisplayOutput[];
  /** What the cell did to the workspace (attached by the worker, not by Python). */
  changes: FileChanges;
}

/** Packages of a session: loaded ones with versions, and those that could be loaded offline. */
export interface PackageListing {
  loaded: Record<string, string>;
  available: string[];
}

export type HostRequest =
  | { id: number; type: 'execute'; code: string; limits: OutputLimits }
  | { id: number; type: 'run_file'; path: string; limits: OutputLimits }
  | { id: number; type: 'write_file'; path: string; data: Uint8Array; append: boolean; overwrite: boolean }
  | { id: number; type: 'delete_file'; path: string }
  | { id: number; type: 'load_packages'; packages: string[] }
  | { id: number; type: 'list_packages' }
  | { id: number; type: 'install_wheel'; filename: string; data: Uint8Array };

export type WorkerMessage =
  | { type: 'ready'; info: RuntimeInfo }
  | { type: 'boot_failed'; error: WireError }
  | { type: 'log'; message: string }
  | { type: 'snapshot'; data: Uint8Array }
  | { id: number; type: 'reply'; ok: true; value: unknown }
  | { id: number; type: 'reply'; ok: false; error: WireError };
