/**
 * A saved session's workspace in the state directory (--state-dir): `files.json`, the manifest (path → {blob, size,
 * mtime_ms}), and `blobs/<hash>`, the bytes of each file named by the sha256 of its path (flat names: no directory
 * taken from the session reaches the file system). Read back within the file limits, like a live session.
 */
import { createHash } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLimits } from '../wire/contract.js';
import { readRegular, writeAtomic } from './state-files.js';

/** A file read back for a restore. */
export interface StoredFile {
  path: string;
  data: Uint8Array;
}

interface ManifestEntry {
  blob: string;
  size: number;
  mtime_ms: number;
}
/** Workspace path → its blob. A Map: a path is the session's to choose (`__proto__`, `constructor`). */
type Manifest = Map<string, ManifestEntry>;

/** Longest files.json read back. */
const MAX_MANIFEST_BYTES = 64 * 2 ** 20;

export class WorkspaceManifests {
  /** Manifests of the sessions written to in this process. */
  private readonly cached = new Map<string, Manifest>();

  constructor(private readonly limits: FileLimits) {}

  /**
   * The files of the session saved in `dir`, within the file limits, and the paths left out (over a file limit,
   * unreadable, or not a regular file).
   */
  async load(dir: string): Promise<{ files: StoredFile[]; skippedFiles: string[] }> {
    const files: StoredFile[] = [];
    const skippedFiles: string[] = [];
    let total = 0;
    for (const [path, entry] of await readManifest(dir)) {
      const data = await readRegular(join(dir, 'blobs', entry.blob), this.limits.maxFileBytes);
      if (
        data === null ||
        entry.blob !== blobName(path) ||
        files.length >= this.limits.maxFiles ||
        total + data.byteLength > this.limits.maxSessionBytes
      ) {
        skippedFiles.push(path);
        continue;
      }
      total += data.byteLength;
      files.push({ path, data });
    }
    return { files, skippedFiles };
  }

  /** Records a change set of the session `id` saved in `dir`: the bytes of the files it wrote, the files it deleted. */
  async apply(id: string, dir: string, written: StoredFile[], deleted: string[]): Promise<void> {
    if (written.length === 0 && deleted.length === 0) return;
    let manifest = this.cached.get(id);
    if (!manifest) {
      manifest = await readManifest(dir);
      this.cached.set(id, manifest);
    }
    for (const path of deleted) {
      const entry = manifest.get(path);
      if (!entry) continue;
      manifest.delete(path);
      await unlink(join(dir, 'blobs', entry.blob)).catch(() => {});
    }
    for (const file of written) {
      const blob = blobName(file.path);
      await writeAtomic(join(dir, 'blobs'), blob, file.data);
      manifest.set(file.path, { blob, size: file.data.byteLength, mtime_ms: Date.now() });
    }
    // Object.fromEntries defines own properties, so a `__proto__` path is written like any other.
    await writeAtomic(dir, 'files.json', JSON.stringify(Object.fromEntries(manifest)));
  }

  /** Forgets a session's cached manifest (its state was deleted). */
  forget(id: string): void {
    this.cached.delete(id);
  }
}

async function readManifest(dir: string): Promise<Manifest> {
  const manifest: Manifest = new Map();
  const data = await readRegular(join(dir, 'files.json'), MAX_MANIFEST_BYTES);
  if (!data) return manifest;
  try {
    // JSON.parse defines own properties, `__proto__` included; Object.entries lists them all.
    const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return manifest;
    for (const [path, entry] of Object.entries(parsed as Record<string, ManifestEntry | undefined>)) {
      if (validPath(path) && typeof entry?.blob === 'string' && /^[0-9a-f]{64}$/.test(entry.blob)) manifest.set(path, entry);
    }
  } catch {
    manifest.clear();
  }
  return manifest;
}

/** The blob name of a workspace path: flat, fixed length, no part of the path reaches the file system. */
function blobName(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

function validPath(p: string): boolean {
  return p.length > 0 && p.length <= 4096 && !p.includes('\0') && !p.startsWith('/') && !p.split('/').includes('..');
}
