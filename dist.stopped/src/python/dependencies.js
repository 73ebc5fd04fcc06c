/**
 * What an install_packages call needs beyond the offline set: the requested names fetched from a PyPI-style index
 * with their requirements (offline ones taken from the offline set instead), and close matches for names that
 * exist nowhere.
 */
import { distance } from 'fastest-levenshtein';
import { canonicalName } from './distribution.js';
import { fetchPurePythonWheel } from './package-index.js';
/** Most wheels one install_packages call fetches (requested names and their requirements). */
const MAX_FETCHED_WHEELS = 40;
/**
 * Fetches the requested names from the index, then their requirements (offline ones are loaded from the
 * offline set instead). A requested name that cannot be fetched fails the call; a requirement that
 * cannot is reported as a warning (it may be optional or already present).
 */
export async function fetchWithRequirements(names, config, offline, loaded) {
    const wheels = [];
    const offlineDeps = [];
    const warnings = [];
    const seen = new Set(Object.keys(loaded).map(canonicalName));
    const queue = names.map((name) => ({ name, requested: true }));
    while (queue.length > 0) {
        const { name, requested } = queue.shift();
        const key = canonicalName(name);
        if (seen.has(key))
            continue;
        seen.add(key);
        const offlineName = offline.get(key);
        if (offlineName) {
            offlineDeps.push(offlineName);
            continue;
        }
        if (wheels.length >= MAX_FETCHED_WHEELS) {
            warnings.push(`stopped after ${MAX_FETCHED_WHEELS} wheels; ${name} was not fetched`);
            continue;
        }
        try {
            const wheel = await fetchPurePythonWheel(config.indexUrl, name, config.fileLimits.maxFileBytes);
            wheels.push(wheel);
            queue.push(...wheel.requires.map((dep) => ({ name: dep, requested: false })));
        }
        catch (error) {
            if (requested)
                throw error;
            warnings.push(error.message);
        }
    }
    return { wheels, offlineDeps, warnings };
}
/** " (did you mean scipy, scikit-learn?)" for names within a small edit distance or sharing a prefix. */
export function closeMatches(name, available) {
    const wanted = canonicalName(name);
    const close = available
        .map((candidate) => ({ candidate, d: distance(wanted, canonicalName(candidate)) }))
        .filter(({ candidate, d }) => d <= Math.max(2, Math.floor(wanted.length / 3)) || canonicalName(candidate).startsWith(wanted.slice(0, 4)))
        .sort((a, b) => a.d - b.d)
        .slice(0, 5)
        .map(({ candidate }) => candidate);
    return close.length > 0 ? ` (did you mean ${close.join(', ')}?)` : '';
}
