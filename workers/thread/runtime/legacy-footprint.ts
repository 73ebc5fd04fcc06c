/**
 * What loading legacy (0.17.1) packages writes at most, for the file quota's install window (archive-footprint.ts
 * says why it is bounded): each package's `<name>.js` carries Emscripten's file_packager metadata, every file with its
 * `end` offset in the package's uncompressed data, so the last `end` is the bytes it writes and the entries the files.
 *
 * Security: computed with built-ins captured when the module loads, over a copy of the dependency table taken at boot:
 * user code can replace String methods and edit `pyodide._module.packages`, which would otherwise set the bound.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NO_FOOTPRINT, type Footprint } from '../archive-footprint.js';

const { apply } = Reflect;
const indexOf = String.prototype.indexOf;
const charCodeAt = String.prototype.charCodeAt;
const hasOwnProperty = Object.prototype.hasOwnProperty;
const ENTRY = '{filename:';
const END = 'end:';

/** The files a package's loader script lists, and the end of the last one (the uncompressed bytes). */
function scriptFootprint(script: string): Footprint {
  let files = 0;
  let bytes = 0;
  for (let at = apply(indexOf, script, [ENTRY]) as number; at >= 0; at = apply(indexOf, script, [ENTRY, at + 1]) as number) {
    files++;
    const end = apply(indexOf, script, [END, at]) as number;
    if (end < 0) return NO_FOOTPRINT;
    let value = 0;
    for (let i = end + END.length; ; i++) {
      const code = apply(charCodeAt, script, [i]) as number;
      if (!(code >= 48 && code <= 57)) break;
      value = value * 10 + (code - 48);
    }
    if (value > bytes) bytes = value;
  }
  return { bytes, files };
}

/**
 * Returns installFootprint for a 0.17.1 distribution: `dependencies` is copied now (call it at boot, before user
 * code), `loaded` is asked at each call (user code can only make the bound smaller through it).
 */
export function legacyInstallFootprint(
  distDir: string,
  dependencies: Record<string, string[]>,
  loaded: () => Record<string, string>,
): (names: string[]) => Footprint {
  const table: Record<string, string[]> = Object.create(null);
  for (const name of Object.keys(dependencies)) {
    const deps = dependencies[name]!;
    const copy: string[] = [];
    for (let i = 0; i < deps.length; i++) copy[i] = deps[i]!;
    table[name] = copy;
  }
  const cache: Record<string, Footprint> = Object.create(null);
  const footprintOf = (name: string): Footprint => {
    if (!cache[name]) {
      try {
        cache[name] = scriptFootprint(readFileSync(path.join(distDir, `${name}.js`), 'utf8'));
      } catch {
        cache[name] = NO_FOOTPRINT;
      }
    }
    return cache[name];
  };
  return (names) => {
    const queue: string[] = [];
    for (let i = 0; i < names.length; i++) queue[i] = names[i]!;
    const seen: Record<string, true> = Object.create(null);
    let bytes = 0;
    let files = 0;
    for (let i = 0; i < queue.length; i++) {
      const name = queue[i]!;
      if (seen[name] || !table[name] || apply(hasOwnProperty, loaded(), [name])) continue;
      seen[name] = true;
      const one = footprintOf(name);
      bytes += one.bytes;
      files += one.files;
      const deps = table[name];
      for (let j = 0; j < deps.length; j++) queue[queue.length] = deps[j]!;
    }
    return { bytes, files };
  };
}
