/**
 * createSandbox() options: the CLI's flags in camelCase, typed by the flag table (src/server/config.ts) and turned
 * into a Config by the same code as argv and env, so a default or a rule is stated once. Env twins are not read: a
 * library is configured by its caller.
 */
import { buildConfig, FLAGS } from '../server/config.js';
/** The option name of a flag, as OptionOf types it. */
export function optionName(flag) {
    const row = FLAGS[flag];
    return 'option' in row ? row.option : flag.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}
const sandboxFlags = Object.keys(FLAGS).filter((flag) => !('cliOnly' in FLAGS[flag]));
/** What JavaScript type an option takes, read off its row: a switch, a list (from its default's parsed form), … */
function kindOf(flag) {
    const row = FLAGS[flag];
    if ('boolean' in row)
        return 'boolean';
    if ('multiple' in row)
        return 'array';
    // A row without a default shows its kind by what it makes of a sample value (a comma list gives an array).
    const parsed = row.default === undefined ? row.schema.safeParse('x').data : row.schema.parse(row.default);
    return Array.isArray(parsed) ? 'array' : typeof parsed === 'number' ? 'number' : 'string';
}
/** The raw value the flag's schema takes for an option value, after checking its JavaScript type. */
function toRaw(flag, name, value) {
    const kind = kindOf(flag);
    const wrong = () => new TypeError(`Invalid value ${JSON.stringify(value)} for option ${name}: expected ${kind === 'array' ? 'an array of strings' : `a ${kind}`}. ${FLAGS[flag].help}`);
    if (kind === 'array') {
        if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
            throw wrong();
        if ('multiple' in FLAGS[flag])
            return value;
        // A comma-list flag: an item holding a comma would be split into two, so it is refused instead.
        if (value.some((item) => item.includes(',') || item.trim() === ''))
            throw wrong();
        return value.join(',');
    }
    if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value)))
        throw wrong();
    return kind === 'boolean' ? String(value) : value;
}
/** Validates createSandbox() options into a Config. Throws a TypeError naming the first bad or unknown option. */
export function configFromOptions(options, cwd = process.cwd(), env = process.env) {
    if (options === null || typeof options !== 'object')
        throw new TypeError(`options must be an object, not ${JSON.stringify(options)}.`);
    const known = new Map(sandboxFlags.map((flag) => [optionName(flag), flag]));
    for (const name of Object.keys(options)) {
        if (name !== 'log' && !known.has(name)) {
            throw new TypeError(`Unknown option ${JSON.stringify(name)}. Options: ${[...known.keys(), 'log'].join(', ')}.`);
        }
    }
    if (options.log !== undefined && typeof options.log !== 'function')
        throw new TypeError('Invalid value for option log: expected a function.');
    const given = options;
    return buildConfig((flag) => {
        const name = optionName(flag);
        const value = known.has(name) ? given[name] : undefined;
        const source = `option ${name}`;
        return value === undefined ? { given: FLAGS[flag].default, source } : { given: toRaw(flag, name, value), source };
    }, optionName, cwd, 
    // Only for the per-user snapshot cache's default location ($XDG_CACHE_HOME, $HOME); PYODIDE_MCP_* are not read.
    env);
}
