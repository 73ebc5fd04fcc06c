/**
 * createSandbox() options: the CLI's flags in camelCase, typed by the flag table (src/server/config.ts) and turned
 * into a Config by the same code as argv and env, so a default or a rule is stated once. Env twins are not read: a
 * library is configured by its caller.
 */
import { z } from 'zod';
import { machineMemory, type MachineMemory } from '../sessions/memory-budget.js';
import { buildConfig, type Config, type RawFlag } from '../server/config.js';
import { FLAGS, type FlagName, type FlagValue } from '../server/flags.js';
import { UsageError } from '../errors.js';

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The option a flag becomes: its row's `option`, else its camelCase name. */
type OptionOf<F extends FlagName> = (typeof FLAGS)[F] extends { option: infer O extends string } ? O : CamelCase<F>;

/** Flags that configure the sandbox (not how the command serves). */
type SandboxFlag = { [F in FlagName]: (typeof FLAGS)[F] extends { cliOnly: true } ? never : F }[FlagName];

/**
 * Options of createSandbox() and createMcpServer(): every flag of the command (`pyodide-mcp --help`, docs/configuration.md)
 * in camelCase, with the same default and the same rules; durations say their unit (`timeoutSeconds`,
 * `sessionTtlSeconds`, `maxTimeoutSeconds`, `interruptGraceMs`). Lists are arrays (`preload: []` preloads nothing),
 * switches are booleans. A bad value or an unknown option throws a UsageError naming it.
 */
export type SandboxOptions = { [F in SandboxFlag as OptionOf<F>]?: FlagValue<F> } & {
  /** Where the sandbox's log lines go (session created, ended, why). Default: stderr, prefixed `[pyodide-mcp]`. */
  log?: (message: string) => void;
};

/** The option name of a flag, as OptionOf types it. */
export function optionName(flag: FlagName): string {
  const row = FLAGS[flag];
  return 'option' in row ? row.option : flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const sandboxFlags = (Object.keys(FLAGS) as FlagName[]).filter((flag) => !('cliOnly' in FLAGS[flag]));

/** What JavaScript type an option takes, read off its row: a switch, a list (from its default's parsed form), … */
function kindOf(flag: FlagName): 'boolean' | 'array' | 'number' | 'string' {
  const row = FLAGS[flag];
  if ('boolean' in row) return 'boolean';
  if ('multiple' in row) return 'array';
  // A row without a default shows its kind by its schema (a number), or by what it makes of a sample value (a comma
  // list gives an array).
  if (row.default === undefined && row.schema instanceof z.ZodOptional && row.schema.unwrap() instanceof z.ZodNumber) return 'number';
  const parsed: unknown = row.default === undefined ? row.schema.safeParse('x').data : row.schema.parse(row.default);
  return Array.isArray(parsed) ? 'array' : typeof parsed === 'number' ? 'number' : 'string';
}

/** The raw value the flag's schema takes for an option value, after checking its JavaScript type. */
function toRaw(flag: FlagName, name: string, value: unknown): unknown {
  const kind = kindOf(flag);
  const wrong = () =>
    new UsageError(
      `Invalid value ${JSON.stringify(value)} for option ${name}: expected ${kind === 'array' ? 'an array of strings' : `a ${kind}`}. ${FLAGS[flag].help}`,
    );
  if (kind === 'array') {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw wrong();
    if ('multiple' in FLAGS[flag]) return value;
    // A comma-list flag: an item holding a comma would be split into two, so it is refused instead.
    if (value.some((item: string) => item.includes(',') || item.trim() === '')) throw wrong();
    return value.join(',');
  }
  if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value))) throw wrong();
  return kind === 'boolean' ? String(value) : value;
}

/** Validates createSandbox() options into a Config. Throws a UsageError naming the first bad or unknown option. */
export function configFromOptions(
  options: SandboxOptions,
  cwd = process.cwd(),
  env: Record<string, string | undefined> = process.env,
  machine: MachineMemory = machineMemory(),
): Config {
  if (options === null || typeof options !== 'object') throw new UsageError(`options must be an object, not ${JSON.stringify(options)}.`);
  const known = new Map(sandboxFlags.map((flag) => [optionName(flag), flag]));
  for (const name of Object.keys(options)) {
    if (name !== 'log' && !known.has(name)) {
      throw new UsageError(`Unknown option ${JSON.stringify(name)}. Options: ${[...known.keys(), 'log'].join(', ')}.`);
    }
  }
  if (options.log !== undefined && typeof options.log !== 'function')
    throw new UsageError('Invalid value for option log: expected a function.');
  const given = options as Record<string, unknown>;
  return buildConfig(
    (flag): RawFlag => {
      const name = optionName(flag);
      const value = known.has(name) ? given[name] : undefined;
      const source = `option ${name}`;
      return value === undefined
        ? { given: FLAGS[flag].default, source, explicit: false }
        : { given: toRaw(flag, name, value), source, explicit: true };
    },
    optionName,
    cwd,
    // Only for the per-user snapshot cache's default location ($XDG_CACHE_HOME, $HOME); PYODIDE_MCP_* are not read.
    env,
    machine,
  );
}
