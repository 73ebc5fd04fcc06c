/**
 * createSandbox() options: the CLI's flags in camelCase, typed by the flag table (src/server/config.ts) and turned
 * into a Config by the same code as argv and env, so a default or a rule is stated once. Env twins are not read: a
 * library is configured by its caller.
 */
import { FLAGS, type Config, type FlagName, type FlagValue } from '../server/config.js';
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
/** The option a flag becomes: its row's `option`, else its camelCase name. */
type OptionOf<F extends FlagName> = (typeof FLAGS)[F] extends {
    option: infer O extends string;
} ? O : CamelCase<F>;
/** Flags that configure the sandbox (not how the command serves). */
type SandboxFlag = {
    [F in FlagName]: (typeof FLAGS)[F] extends {
        cliOnly: true;
    } ? never : F;
}[FlagName];
/**
 * Options of createSandbox() and createMcpServer(): every flag of the command (`pyodide-mcp --help`, README "Flags")
 * in camelCase, with the same default and the same rules; durations say their unit (`timeoutSeconds`,
 * `sessionTtlSeconds`, `maxTimeoutSeconds`, `interruptGraceMs`). Lists are arrays (`preload: []` preloads nothing),
 * switches are booleans. A bad value or an unknown option throws a TypeError naming it.
 */
export type SandboxOptions = {
    [F in SandboxFlag as OptionOf<F>]?: FlagValue<F>;
} & {
    /** Where the sandbox's log lines go (session created, ended, why). Default: stderr, prefixed `[pyodide-mcp]`. */
    log?: (message: string) => void;
};
/** The option name of a flag, as OptionOf types it. */
export declare function optionName(flag: FlagName): string;
/** Validates createSandbox() options into a Config. Throws a TypeError naming the first bad or unknown option. */
export declare function configFromOptions(options: SandboxOptions, cwd?: string, env?: Record<string, string | undefined>): Config;
export {};
