/**
 * When each session imports its preload set (numpy, pandas, …). Sessions are handed out as soon as their interpreter
 * is up; the preload then runs in the background inside the session (workers/thread/preloader.ts), started from here.
 *
 * Why a scheduler: on the 2-core machine this was built on, a scientific preload is 10–12 s of CPU per session. Run
 * as soon as each session is up, five sessions' preloads starved the next sessions' boots and the pool ran dry.
 * So a preload starts only while no session is booting, and at most `slots` run at once (cores − 1, at least 1: a
 * core stays free for the cells agents are waiting on). Sessions an agent holds go before warm ones.
 *
 * A session is primed (the `prime` request, workers/thread/prime.ts) as soon as it is up, before its preload and
 * whether or not other sessions boot: it is short (0.3 s of CPU), and it is what makes an agent's first calls in a
 * session as fast as later ones. When it came last (only while no session booted and no preload waited), a pool that
 * kept booting (refilling after a burst of creates) handed out sessions it had never primed. The worker stops it at
 * the agent's first request.
 *
 * Nothing starts while a call an agent waits on runs (`mayStart`: the background gate), except a preload a call waits
 * for, which starts at once whatever the slots.
 */
import type { PreloadReport } from '../wire/contract.js';
import type { SessionChannel } from './channel.js';
import { capFailures } from './reply-caps.js';

interface Entry {
  readonly channel: SessionChannel;
  /** Of the preload (the priming that follows it is not awaited by anyone). */
  state: 'waiting' | 'running' | 'done' | 'failed';
  /** An agent holds the session: its preload does not wait for boots to end. */
  urgent: boolean;
  /** Not started before this time (ms since epoch); see HELD_GRACE_MS. */
  notBefore: number;
  /** A call waits for it (whenDone): it starts at once, whatever else runs. */
  awaited: boolean;
  readonly done: Promise<PreloadReport>;
  /** What the preload did, once done. */
  report: PreloadReport | null;
  resolve: (report: PreloadReport) => void;
  reject: (error: Error) => void;
}

/**
 * How long a session an agent just took is left alone before its preload starts, unless a cell needs the preload.
 * A preload step cannot be interrupted (loading numpy's files takes about a second), and the call that created the
 * session usually comes right after: measured, the first `print(6*7)` after start waited 1.2 s behind a step.
 */
const HELD_GRACE_MS = 1500;

export class PreloadScheduler {
  private readonly entries = new Map<SessionChannel, Entry>();
  /** Waiting entries, first to start first. */
  private readonly queue: Entry[] = [];
  /** Sessions whose priming waits, first to start first. */
  private readonly primes: Entry[] = [];
  private running = 0;
  private closed = false;

  /**
   * @param slots preloads that may run at once (at least 1)
   * @param booting how many sessions are booting now; preloads wait while any is
   * @param log the server's log
   * @param preloadSet whether there is anything to preload (else each session goes straight to its priming)
   * @param primeCells cells each session's priming runs (0: none)
   * @param mayStart whether background work may start now (src/sessions/background-gate.ts: no call an agent waits on
   *   runs); a preload a call waits for starts anyway. Call pump() when it turns true.
   */
  constructor(
    private readonly slots: number,
    private readonly booting: () => number,
    private readonly log: (message: string) => void,
    private readonly preloadSet = true,
    private readonly primeCells = 0,
    private readonly mayStart: () => boolean = () => true,
  ) {}

  /** Queues a ready session's preload (`urgent`: an agent holds it, so it goes first). Idempotent. */
  add(channel: SessionChannel, urgent = false): void {
    if (this.entries.has(channel) || this.closed) return;
    let resolve!: Entry['resolve'];
    let reject!: Entry['reject'];
    const done = new Promise<PreloadReport>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => {}); // failures are logged; a waiter that cares gets its own rejection
    const entry: Entry = {
      channel,
      state: 'waiting',
      urgent,
      notBefore: urgent ? this.graceEnd() : 0,
      awaited: false,
      done,
      report: null,
      resolve,
      reject,
    };
    this.entries.set(channel, entry);
    channel.onEnd((reason) => {
      this.entries.delete(channel);
      for (const queue of [this.queue, this.primes]) {
        const index = queue.indexOf(entry);
        if (index >= 0) queue.splice(index, 1);
      }
      if (entry.state === 'waiting' || entry.state === 'running') entry.reject(reason);
    });
    this.queuePrime(entry);
    if (!this.preloadSet) {
      entry.state = 'done';
      entry.report = { imported: {}, failed: [] };
      entry.resolve(entry.report);
    } else if (urgent) this.queue.unshift(entry);
    else this.queue.push(entry);
    this.pump();
  }

  /** Called once per entry, when it is added. */
  private queuePrime(entry: Entry): void {
    if (this.primeCells === 0 || this.closed || !this.entries.has(entry.channel)) return;
    this.primes.push(entry);
  }

  /** Moves a waiting session to the front (an agent took it from the warm pool). */
  prioritize(channel: SessionChannel): void {
    const entry = this.entries.get(channel);
    if (!entry) return;
    if (entry.state === 'waiting' && !entry.urgent) entry.notBefore = this.graceEnd();
    entry.urgent = true;
    const index = this.queue.indexOf(entry);
    if (index > 0) this.queue.unshift(...this.queue.splice(index, 1));
    this.pump();
  }

  /** True once the session has imported its preload set. */
  isDone(channel: SessionChannel): boolean {
    return this.entries.get(channel)?.state === 'done';
  }

  /**
   * What the session's preload did, once it is done (null while it is waiting or running, or when it could not run):
   * create_session reports it when the session was preloaded before an agent took it.
   */
  reportOf(channel: SessionChannel): PreloadReport | null {
    return this.entries.get(channel)?.report ?? null;
  }

  /**
   * Resolves to what the session's preload imported and what failed, once it is done; rejects if it could not run
   * (the session ended).
   */
  whenDone(channel: SessionChannel): Promise<PreloadReport> {
    const entry = this.entries.get(channel);
    if (!entry) return Promise.reject(new Error('this session has no preload scheduled'));
    // Someone waits for it: no grace, no waiting for a slot or for calls elsewhere to end.
    entry.notBefore = 0;
    entry.awaited = true;
    this.pump();
    return entry.done;
  }

  /** The end of a held session's grace, with a pump scheduled for then. */
  private graceEnd(): number {
    setTimeout(() => this.pump(), HELD_GRACE_MS + 1).unref();
    return Date.now() + HELD_GRACE_MS;
  }

  /** Starts what may start now; call whenever a boot ends. */
  pump(): void {
    // A preload a call waits for starts at once (it is that call's work, not background work).
    for (let index; !this.closed && (index = this.queue.findIndex((entry) => entry.awaited)) >= 0;) this.startPreload(index);
    if (!this.mayStart()) return;
    // A held session's preload starts even while others boot: an agent may be waiting on it (SessionManager.execute).
    const eligible = (entry: Entry) => Date.now() >= entry.notBefore && (entry.urgent || this.booting() === 0);
    while (!this.closed && this.running < this.slots) {
      // Priming first (see the top of this file).
      if (this.primes.length > 0) {
        this.startPrime(this.primes.shift()!);
        continue;
      }
      const index = this.queue.findIndex(eligible);
      if (index < 0) return;
      this.startPreload(index);
    }
  }

  private startPreload(index: number): void {
    const [entry] = this.queue.splice(index, 1) as [Entry];
    entry.state = 'running';
    this.running++;
    const started = performance.now();
    void entry.channel
      .background({ type: 'preload' })
      .then(
        (answer) => {
          entry.state = 'done';
          // Security: the reasons come from the session; they are cut again here.
          const report = { imported: answer.imported, failed: capFailures(answer.failed) };
          entry.report = report;
          this.log(`preload imported in ${Math.round(performance.now() - started)} ms`);
          for (const failure of report.failed) this.log(`preload: ${failure.name} not imported: ${failure.reason}`);
          entry.resolve(report);
        },
        (error: Error) => {
          entry.state = 'failed';
          // The session stays usable: what is missing is imported on first use, like any offline package.
          if (!entry.channel.endReason) this.log(`preload failed (imported on first use instead): ${error.message}`);
          entry.reject(error);
        },
      )
      .finally(() => {
        this.running--;
        this.pump();
      });
  }

  private startPrime(entry: Entry): void {
    this.running++;
    const started = performance.now();
    void entry.channel
      .background({ type: 'prime', cells: this.primeCells })
      .then(
        // The log line keeps its older wording: test/sessions/prime.test.ts and bench/ match on "warmed up:".
        ({ cells }) => this.log(`warmed up: ${cells} cells in ${Math.round(performance.now() - started)} ms`),
        // A failed priming costs nothing but speed; the session's death, if that is why, is reported by its channel.
        () => {},
      )
      .finally(() => {
        this.running--;
        this.pump();
      });
  }

  /** Starts nothing more (shutdown). */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.primes.length = 0;
  }
}
