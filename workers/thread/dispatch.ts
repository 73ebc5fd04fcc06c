/**
 * The worker's request loop: one request at a time, in arrival order, each answered by its handler in the dispatch
 * table (ops.ts) with exactly one reply. The preload and priming run in the background, their steps through the same
 * queue, between requests. Once the interpreter is gone or the workspace was tampered with, every later request is
 * answered with that reason.
 */
import type { SessionMessage, SessionRequest, WorkerOp } from '../../src/wire/contract.js';
import type { OpHandlers, Reply } from './ops.js';
import { SerialWork } from './preloader.js';
import { WorkspaceViolation } from './workspace.js';
import { toWire, WorkerCrash } from './worker-errors.js';

/** Ops that run beside the queue (their steps go through it) and are not an agent's. */
const BACKGROUND_OPS: ReadonlySet<WorkerOp> = new Set<WorkerOp>(['preload', 'prime']);

export class RequestDispatcher {
  /** Security: once the interpreter is gone or the workspace was tampered with, every later request says so. */
  ended: WorkerCrash | null = null;
  /** Requests other than preload and prime received so far: priming stops at the first. */
  agentRequests = 0;
  /** One request at a time, in arrival order; the preload and priming run their steps through it, between requests. */
  readonly work = new SerialWork();
  private handlers: OpHandlers | null = null;

  constructor(private readonly post: (message: SessionMessage, transfer?: ArrayBuffer[]) => void) {}

  /** The dispatch table; set once, before the first request. */
  use(handlers: OpHandlers): void {
    this.handlers = handlers;
  }

  /** Queues one request (or starts it, for a background op); its reply is posted when it is done. */
  readonly onRequest = (request: SessionRequest): void => {
    const answer = async () => {
      try {
        if (this.ended) throw this.ended;
        const { value, transfer } = await this.handle(request);
        this.post({ id: request.id, type: 'reply', ok: true, value }, transfer);
      } catch (error) {
        if (error instanceof WorkspaceViolation) this.ended = new WorkerCrash(error.message);
        else if (error instanceof WorkerCrash) this.ended = error;
        this.post({ id: request.id, type: 'reply', ok: false, error: toWire(this.ended ?? error) });
      }
    };
    const background = BACKGROUND_OPS.has(request.type as WorkerOp);
    if (!background) this.agentRequests++;
    void (background ? answer() : this.work.run(answer));
  };

  private handle(request: SessionRequest): Promise<Reply<WorkerOp>> {
    if (!this.handlers) throw new Error('the worker is not ready');
    // read_file is the supervisor's (it answers from its copy of the files): it never reaches the worker.
    if (request.type === 'read_file') throw new Error('read_file is answered by the supervisor, not the worker');
    // One cast: TypeScript cannot tie `handlers[request.type]` to `request`'s own member of the union.
    const handler = this.handlers[request.type] as (request: SessionRequest) => Promise<Reply<WorkerOp>>;
    return handler(request);
  }
}
