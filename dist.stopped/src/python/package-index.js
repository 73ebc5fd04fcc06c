/**
 * Network installs for `install_packages` under --allow-network. The server, not the session, talks to
 * the index: the session's sandbox keeps no network at all. Only pure-Python wheels
 * (`py3-none-any`) are taken, each checked against the sha256 the index publishes; compiled wheels for
 * Pyodide are not on a regular index, and a session could not load a native build for this machine.
 */
import { createHash } from 'node:crypto';
import { PyodideMcpError } from '../errors.js';
/**
 * Fetches the newest pure-Python wheel of `name` from a PyPI-style JSON index (`<index>/<name>/json`).
 * Throws PACKAGE_UNAVAILABLE with the reason (not found, no pure-Python wheel, checksum mismatch, too big).
 */
export async function fetchPurePythonWheel(indexUrl, name, maxBytes) {
    const fail = (why) => {
        throw new PyodideMcpError('PACKAGE_UNAVAILABLE', `${name}: ${why}. Nothing was installed.`);
    };
    const base = indexUrl.replace(/\/+$/, '');
    let release;
    try {
        const response = await fetch(`${base}/${encodeURIComponent(name)}/json`, { signal: AbortSignal.timeout(30_000) });
        if (response.status === 404)
            return fail(`not found on the index ${base}`);
        if (!response.ok)
            return fail(`the index ${base} answered HTTP ${response.status}`);
        release = (await response.json());
    }
    catch (error) {
        if (error instanceof PyodideMcpError)
            throw error;
        return fail(`the index ${base} could not be reached (${error.message})`);
    }
    const wheel = release.urls.find((u) => u.packagetype === 'bdist_wheel' && /-(py3|py2\.py3)-none-any\.whl$/.test(u.filename));
    if (!wheel)
        return fail(`version ${release.info.version} has no pure-Python wheel (py3-none-any); packages with compiled code must come from the offline set`);
    if (!wheel.digests.sha256)
        return fail('the index gives no sha256 for its wheel, so it cannot be verified');
    const response = await fetch(new URL(wheel.url, `${base}/`), { signal: AbortSignal.timeout(120_000) }).catch((error) => fail(`download failed (${error.message})`));
    if (!response.ok)
        return fail(`download of ${wheel.filename} answered HTTP ${response.status}`);
    const data = new Uint8Array(await response.arrayBuffer());
    if (data.byteLength > maxBytes)
        return fail(`${wheel.filename} is ${data.byteLength} bytes, above --max-file-bytes`);
    if (createHash('sha256').update(data).digest('hex') !== wheel.digests.sha256.toLowerCase()) {
        return fail(`${wheel.filename} does not match the sha256 the index published`);
    }
    return {
        name: release.info.name,
        version: release.info.version,
        filename: wheel.filename,
        data,
        requires: plainRequirements(release.info.requires_dist ?? []),
    };
}
/** `requests (>=2); python_version >= "3"` → `requests`; requirements that only apply with an extra are left out. */
export function plainRequirements(requiresDist) {
    return requiresDist
        .filter((req) => !/extra\s*==/.test(req))
        .map((req) => /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(req)?.[1])
        .filter((name) => !!name);
}
