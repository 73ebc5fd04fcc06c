import { type FetchedWheel } from './package-index.js';
/**
 * Fetches the requested names from the index, then their requirements (offline ones are loaded from the
 * offline set instead). A requested name that cannot be fetched fails the call; a requirement that
 * cannot is reported as a warning (it may be optional or already present).
 */
export declare function fetchWithRequirements(names: string[], config: {
    indexUrl: string;
    fileLimits: {
        maxFileBytes: number;
    };
}, offline: Map<string, string>, loaded: Record<string, string>): Promise<{
    wheels: FetchedWheel[];
    offlineDeps: string[];
    warnings: string[];
}>;
/** " (did you mean scipy, scikit-learn?)" for names within a small edit distance or sharing a prefix. */
export declare function closeMatches(name: string, available: string[]): string;
