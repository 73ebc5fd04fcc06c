/**
 * The host's view of one session's workspace: a memfs volume updated from each call's change set.
 * Listing, reading and resources are served from here, so they answer at once even while the
 * session's worker is busy with a long computation.
 */
import { Volume } from 'memfs';
import { PyodideMcpError } from '../errors.js';
import type { FileChanges } from '../contract.js';
import { mimeType, sessionUri } from '../sandbox/host-paths.js';

/** A file or directory as list_files reports it. */
export interface FileEntry {
  name: string;
  path: string;
  type: 'file' | 'directory';
  size: number;
  modified: string;
}

/** A file as execute_code's `files` reports it. */
export interface FileRef {
  uri: string;
  name: string;
  path: string;
  mime_type: string;
  size: number;
}

export class SessionFiles {
  private readonly volume = new Volume();

  constructor(private readonly sessionId: string) {}

  /** Applies a change set from the worker; returns the written files as references. */
  apply(changes: FileChanges): FileRef[] {
    for (const path of changes.deleted) this.volume.rmSync(`/${path}`, { force: true });
    for (const file of changes.written) {
      const abs = `/${file.path}`;
      this.volume.mkdirSync(abs.slice(0, abs.lastIndexOf('/')) || '/', { recursive: true });
      this.volume.writeFileSync(abs, file.data);
      const when = new Date(file.mtimeMs);
      this.volume.utimesSync(abs, when, when);
    }
    if (changes.deleted.length > 0) this.pruneEmptyDirectories("/");
    return changes.written.map((file) => this.ref(file.path, file.data.byteLength));
  }

  /** Entries under a workspace-relative directory ('' = the workspace). */
  list(dir: string, recursive: boolean): FileEntry[] {
    const abs = `/${dir}`;
    if (!this.volume.existsSync(abs)) {
      if (dir === '') return [];
      throw new PyodideMcpError('FILE_NOT_FOUND', `${JSON.stringify(dir)} does not exist in the session workspace.`);
    }
    if (!this.volume.statSync(abs).isDirectory()) return [this.entry(dir)];
    const entries: FileEntry[] = [];
    const walk = (rel: string) => {
      for (const name of (this.volume.readdirSync(rel === '' ? '/' : `/${rel}`) as string[]).sort()) {
        const path = rel === '' ? name : `${rel}/${name}`;
        const entry = this.entry(path);
        entries.push(entry);
        if (recursive && entry.type === 'directory') walk(path);
      }
    };
    walk(dir);
    return entries;
  }

  /** Bytes of a file; FILE_NOT_FOUND / NOT_A_FILE otherwise. */
  read(path: string): Buffer {
    const abs = `/${path}`;
    if (!this.volume.existsSync(abs)) {
      throw new PyodideMcpError('FILE_NOT_FOUND', `${JSON.stringify(path)} does not exist in the session workspace (list_files shows what does).`);
    }
    if (this.volume.statSync(abs).isDirectory()) throw new PyodideMcpError('NOT_A_FILE', `${JSON.stringify(path)} is a directory.`);
    return this.volume.readFileSync(abs) as Buffer;
  }

  /** Every file, as references (for resources/list). */
  allFiles(): FileRef[] {
    return this.list('', true)
      .filter((entry) => entry.type === 'file')
      .map((entry) => this.ref(entry.path, entry.size));
  }

  ref(path: string, size: number): FileRef {
    return { uri: sessionUri(this.sessionId, path), name: path.slice(path.lastIndexOf('/') + 1), path, mime_type: mimeType(path), size };
  }

  private entry(path: string): FileEntry {
    const st = this.volume.statSync(`/${path}`);
    return {
      name: path.slice(path.lastIndexOf('/') + 1),
      path,
      type: st.isDirectory() ? 'directory' : 'file',
      size: st.isDirectory() ? 0 : Number(st.size),
      modified: new Date(Number(st.mtimeMs)).toISOString(),
    };
  }

  /** The worker reports files only; directories left empty by deletions are dropped from the view. */
  private pruneEmptyDirectories(dir: string): boolean {
    let empty = true;
    for (const name of this.volume.readdirSync(dir) as string[]) {
      const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
      if (this.volume.statSync(path).isDirectory() && this.pruneEmptyDirectories(path)) this.volume.rmdirSync(path);
      else empty = false;
    }
    return empty && dir !== '/';
  }
}
