/**
 * The one line added to an error on the legacy runtime (Python 3.8, 2020's packages) when the error looks like code
 * written for newer Python or newer library versions: which versions run and how to get the modern runtime. A
 * model writing today's code cannot otherwise tell "my code is wrong" from "this interpreter is old".
 * Pure: the caller passes the error, the cell's source when there is one, and the runtime's facts.
 */
import { FETCH_COMMAND } from './distribution.js';

/** The error fields of an execution reply. */
export interface CellError {
  type: string;
  message: string;
  traceback: string;
}

/** What the hint names about the running runtime. */
export interface LegacyFacts {
  python: string;
  pyodide: string;
  /** Versions of the preloaded (or loaded) packages, e.g. {pandas: '1.0.5'}. */
  packages: Record<string, string>;
}

/** Statements and forms that Python 3.8 cannot parse, with the version that added them. */
const NEWER_SYNTAX: [RegExp, string][] = [
  [/^\s*match\b[^\n=]*:\s*(#.*)?$[\s\S]*^\s*case\b/m, 'match/case needs Python 3.10'],
  [/\bexcept\s*\*/, 'except* needs Python 3.11'],
  [/^\s*type\s+\w+\s*(\[[^\]]*\])?\s*=/m, 'type aliases need Python 3.12'],
  [/^\s*(def|class)\s+\w+\s*\[/m, 'generic functions and classes need Python 3.12'],
  [/^\s*with\s*\(\s*$/m, 'parenthesized context managers need Python 3.10'],
];

/** Modules of the standard library newer than 3.8. */
const NEWER_STDLIB = new Set(['zoneinfo', 'graphlib', 'tomllib', 'annotationlib', 'compression']);

/** Builtin types whose missing methods (str.removeprefix, int.bit_count, …) mean a newer Python. */
const BUILTIN_TYPES = /^'(str|bytes|bytearray|int|float|list|dict|set|frozenset|tuple|range|type)' object has no attribute/;

/** Class names of the scientific packages whose missing attributes usually mean a newer library version. */
const LIBRARY_CLASSES =
  /^'(DataFrame|Series|Index|MultiIndex|DatetimeIndex|DataFrameGroupBy|SeriesGroupBy|Rolling|Resampler|ndarray|Generator|Axes|AxesSubplot|Figure|Axes3D|Colormap|\w*Symbol|Matrix|MutableDenseMatrix)' object has no attribute/;

/** The one-line hint for `error`, or null when it does not look like a version gap. */
export function legacyHint(error: CellError, source: string, facts: LegacyFacts): string | null {
  const why = versionGap(error, source);
  if (why === null) return null;
  const libraries = Object.entries(facts.packages)
    .filter(([, version]) => version && version !== 'unknown')
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  return (
    `Hint: this server runs the legacy runtime, Python ${facts.python} (Pyodide ${facts.pyodide})` +
    `${libraries ? ` with ${libraries}` : ''}; ${why}. ` +
    `For Python 3.14 and current packages, run \`${FETCH_COMMAND}\` once and restart the server.`
  );
}

/**
 * The start of the line the harness adds to an error caused by what the sandbox lacks on purpose (no network, stdin,
 * processes or browser; workers/python/sandbox_hints.py, NOTE): such an error is no version gap.
 */
const SANDBOX_NOTE = /\nSandbox: /;

/** Why the error looks like newer Python or a newer library, or null. */
function versionGap({ type, message, traceback }: CellError, source: string): string | null {
  if (SANDBOX_NOTE.test(message)) return null;
  const text = `${source}\n${traceback}`;
  switch (type) {
    case 'SyntaxError': {
      const found = NEWER_SYNTAX.find(([pattern]) => pattern.test(text));
      return found ? found[1] : null;
    }
    case 'TypeError':
      if (/^unsupported operand type\(s\) for \|=?: '(dict|type|NoneType|types\.GenericAlias|typing\.\w+)'/.test(message))
        return '`|` on dicts (3.9) and on types (3.10) needs a newer Python';
      if (/^'type' object is not subscriptable/.test(message)) return 'list[int] and similar generics need Python 3.9';
      if (/unexpected keyword argument/.test(message)) return 'this keyword may belong to a newer version of the library';
      return null;
    case 'AttributeError':
      if (BUILTIN_TYPES.test(message)) return 'this method needs a newer Python';
      if (LIBRARY_CLASSES.test(message) || /^module '[\w.]+' has no attribute/.test(message))
        return 'this name may belong to a newer version of the library';
      return null;
    case 'ModuleNotFoundError': {
      const name = /^No module named '([\w]+)/.exec(message)?.[1];
      return name && NEWER_STDLIB.has(name) ? `the ${name} module needs a newer Python` : null;
    }
    case 'ImportError':
      return /^cannot import name /.test(message) ? 'this name may belong to a newer version of the library' : null;
    default:
      return null;
  }
}
