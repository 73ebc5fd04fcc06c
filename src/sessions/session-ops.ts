/**
 * The calls on one session's workspace, packages and namespace (files, packages, namespace ops, reset, export), each
 * in the session's turn (queued behind running code) except the reads the supervisor answers beside a running cell.
 * The base of SessionManager, which owns the sessions, their queues and their restore: this module only says what
 * each call does in its turn.
 */
import type { FilePage, PackageListing, PackageLoad, ReplyOf, RequestOf } from '../wire/contract.js';
import type { Config } from '../server/config.js';
import { exportTurnOf, EXPORT_SLOTS, WHOLE_READ_SLOTS, type ExportTurn } from './export-turn.js';
import type { FileRef, SessionFileIndex } from './file-index.js';
import type { NamespaceEvents } from './namespace-events.js';
import type { Persistence } from './persistence.js';
import { applyChanges, type Session } from './registry.js';
import { capFailures } from './reply-caps.js';
import { Slots } from './slots.js';
import type { ViewEvents } from './view-events.js';

export abstract class SessionOps {
  protected abstract readonly config: Config;
  protected abstract readonly persistence: Persistence;
  protected abstract readonly namespaceEvents: NamespaceEvents;
  abstract readonly viewEvents: ViewEvents;
  private readonly exportSlots = new Slots(EXPORT_SLOTS);
  private readonly wholeReads = new Slots(WHOLE_READ_SLOTS);

  /** Runs `task` in the session's turn (SessionManager.enqueue). */
  protected abstract enqueue<T>(id: string, task: (session: Session) => Promise<T>, bytes?: number): Promise<T>;
  /** The live session, restored first when it is saved (SessionManager.live). */
  protected abstract live(id: string): Promise<Session>;

  /** Packages loaded in a session, and those it could load offline. */
  listPackages(id: string): Promise<PackageListing> {
    return this.enqueue(id, (session) => session.channel.request({ type: 'list_packages' }));
  }

  /** Writes a file into a session's workspace, queued behind running code. */
  writeFile(id: string, path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): Promise<FileRef> {
    return this.enqueue(id, (session) => this.writeNow(session, path, data, options), path.length + data.byteLength);
  }

  /** Writes a file in a call whose turn it is. */
  private async writeNow(
    session: Session,
    path: string,
    data: Uint8Array,
    options: { append: boolean; overwrite: boolean },
  ): Promise<FileRef> {
    const changes = await session.channel.request({ type: 'write_file', path, data, ...options });
    applyChanges(session, changes);
    this.viewEvents.filesChanged(session.id, changes);
    await this.persistence.filesChanged(session, changes);
    return session.files.ref(path, session.files.sizeOf(path));
  }

  /** Deletes a file (or empty directory) from a session's workspace, queued behind running code. */
  deleteFile(id: string, path: string): Promise<void> {
    return this.enqueue(id, async (session) => {
      const changes = await session.channel.request({ type: 'delete_file', path });
      applyChanges(session, changes);
      this.viewEvents.filesChanged(session.id, changes);
      await this.persistence.filesChanged(session, changes);
    });
  }

  /**
   * Reads up to `length` bytes of a session file from `offset`. Not queued: the session's supervisor answers from
   * its copy of the files even while the session runs code (the files as of the end of the last call).
   */
  async readFile(id: string, path: string, offset = 0, length = Number.MAX_SAFE_INTEGER): Promise<FilePage> {
    const session = await this.live(id);
    session.files.sizeOf(path); // FILE_NOT_FOUND / NOT_A_FILE from the index, without a round trip
    return session.channel.request({ type: 'read_file', path, offset, length: Math.min(length, this.config.fileLimits.maxFileBytes) });
  }

  /** Reads a whole session file and hands it to `use`, in one of WHOLE_READ_SLOTS server-wide slots. */
  readWhole<T>(id: string, path: string, use: (data: Uint8Array) => Promise<T>): Promise<T> {
    return this.wholeReads.run(async () => use((await this.readFile(id, path)).data));
  }

  /** The server's view of a session's files: answers at once, even while the session runs code. */
  async filesOf(id: string): Promise<SessionFileIndex> {
    return (await this.live(id)).files;
  }

  /** Installs a fetched pure-Python wheel into a session, queued like a cell. */
  async installWheel(id: string, filename: string, data: Uint8Array): Promise<void> {
    await this.enqueue(id, (session) => session.channel.request({ type: 'install_wheel', filename, data }), data.byteLength);
    this.viewEvents.packagesLoaded(id, [filename], []);
  }

  /**
   * Loads offline packages into a session, queued like a cell: those asked for that are loaded now, and every package
   * that failed to load (requirements too) with the loader's reason.
   */
  async loadPackages(id: string, packages: string[]): Promise<PackageLoad> {
    const load = await this.enqueue(id, (session) => session.channel.request({ type: 'load_packages', packages }));
    // Security: the reasons come from the session; they are cut again here.
    const failed = capFailures(load.failed);
    this.viewEvents.packagesLoaded(
      id,
      load.loaded,
      failed.map((f) => f.name),
    );
    return { loaded: load.loaded, failed };
  }

  /**
   * A namespace request (list_variables, inspect_variable, remove_variables), queued like a cell and bound by the
   * default time limit: it runs user code (a __repr__, a property) that may loop.
   */
  namespace<K extends 'list_variables' | 'inspect_variable' | 'remove_variables'>(
    id: string,
    body: RequestOf<K> & { type: K },
    signal?: AbortSignal,
  ): Promise<ReplyOf<K>> {
    return this.enqueue(id, (session) => session.channel.requestWithin<K>(body, { timeoutMs: this.config.defaultTimeoutMs, signal }));
  }

  /**
   * A fresh namespace in the same session, as after a kernel restart: user names removed, execution count and cell
   * history started again, files kept unless `clearFiles`. Returns how many names were removed.
   */
  reset(id: string, clearFiles: boolean): Promise<{ removed: number; files_deleted: number }> {
    return this.enqueue(id, async (session) => {
      const reply = await session.channel.requestWithin(
        { type: 'reset', clear_files: clearFiles },
        { timeoutMs: this.config.defaultTimeoutMs },
      );
      applyChanges(session, reply.changes);
      this.viewEvents.filesChanged(session.id, reply.changes);
      session.executionCount = 0;
      session.history.clear();
      await this.persistence.filesChanged(session, reply.changes);
      await this.persistence.cellsCleared(session);
      this.namespaceEvents.gone(id);
      this.viewEvents.reset(id);
      return { removed: reply.removed, files_deleted: reply.changes.deleted.length };
    });
  }

  /**
   * Runs an export (export_notebook) in the session's turn, after the calls queued before it (so its history holds
   * still), and in one of EXPORT_SLOTS server-wide slots (so exports at once cannot multiply the server's memory).
   */
  exportTurn<T>(id: string, task: (turn: ExportTurn) => Promise<T>): Promise<T> {
    return this.enqueue(id, (session) =>
      this.exportSlots.run(() =>
        task(
          exportTurnOf(session, this.config.fileLimits.maxFileBytes, (path, data, options) => this.writeNow(session, path, data, options)),
        ),
      ),
    );
  }
}
