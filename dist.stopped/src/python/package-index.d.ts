/** A wheel ready to install into a session. */
export interface FetchedWheel {
    name: string;
    version: string;
    filename: string;
    data: Uint8Array;
    /** Names from the wheel's requirements (no extras, no environment markers that need evaluating). */
    requires: string[];
}
/**
 * Fetches the newest pure-Python wheel of `name` from a PyPI-style JSON index (`<index>/<name>/json`).
 * Throws PACKAGE_UNAVAILABLE with the reason (not found, no pure-Python wheel, checksum mismatch, too big).
 */
export declare function fetchPurePythonWheel(indexUrl: string, name: string, maxBytes: number): Promise<FetchedWheel>;
/** `requests (>=2); python_version >= "3"` → `requests`; requirements that only apply with an extra are left out. */
export declare function plainRequirements(requiresDist: string[]): string[];
