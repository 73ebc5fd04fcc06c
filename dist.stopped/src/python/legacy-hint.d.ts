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
/** The one-line hint for `error`, or null when it does not look like a version gap. */
export declare function legacyHint(error: CellError, source: string, facts: LegacyFacts): string | null;
