/**
 * The packages a cell's `%pip install` / `!pip install` lines name, read on the host so that the server installs
 * them (through install_packages' path) before the cell runs: a cell cannot wait for the server while it runs.
 * The same rules as the cell's own reading of these lines (workers/python/pip_magic.py, requested_names): options
 * that change nothing here are skipped, version specifiers and extras are dropped, and a line with any other
 * option (`-r file`, `-e`, an index URL) or a `{variable}` is left to the cell, which explains what is refused.
 */

/** A `%pip install` or `!pip install` (or `pip3`) line, at the start of a line. */
const PIP_LINE = /^[ \t]*[%!][ \t]*pip3?[ \t]+install[ \t]+(.*)$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*/;
const IGNORED = new Set(
  '-q --quiet -U --upgrade --user --no-cache-dir --pre --force-reinstall --no-warn-script-location -v --verbose --no-deps --upgrade-strategy --progress-bar --disable-pip-version-check'.split(
    ' ',
  ),
);
const TAKES_VALUE = new Set(['--upgrade-strategy', '--progress-bar']);

/** The package names of one line's arguments, or null when the line is the cell's to refuse. */
function namesOf(args: string): string[] | null {
  const names: string[] = [];
  const words = args.replace(/#.*$/, '').trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!.replace(/^['"]|['"]$/g, '');
    if (word.startsWith('-')) {
      const option = word.split('=', 1)[0]!;
      if (!IGNORED.has(option)) return null;
      if (TAKES_VALUE.has(option) && !word.includes('=')) i++;
      continue;
    }
    const name = NAME.exec(word);
    if (!name || /[{}$]/.test(word)) return null;
    names.push(name[0]);
  }
  return names;
}

/**
 * The names to install for a cell, in order and without repeats; [] when it has no such line. Lines inside a
 * triple-quoted string or after a backslash continuation are not statements and are skipped, as the cell skips them.
 */
export function pipInstallNames(code: string): string[] {
  if (!/pip3?[ \t]+install/.test(code)) return [];
  const found = new Set<string>();
  let inString: string | null = null;
  let continued = false;
  for (const line of code.split('\n')) {
    const match = inString === null && !continued ? PIP_LINE.exec(line) : null;
    if (match) {
      for (const name of namesOf(match[1]!) ?? []) found.add(name);
      continue;
    }
    for (const quote of line.match(/"""|'''/g) ?? []) {
      if (inString === null) inString = quote;
      else if (inString === quote) inString = null;
    }
    continued = inString === null && /\\\s*$/.test(line);
  }
  return [...found];
}
