import { type SessionMessage, type SessionRequest, type SupervisorOptions } from '../contract.js';
/** What a supervisor sends to the server; file bytes only in `read_file` replies and the boot snapshot. */
export type Emit = (message: SessionMessage) => void;
export declare class Supervisor {
    private readonly emit;
    private readonly onEnd;
    private readonly channelFd;
    private readonly worker;
    private readonly interruptSignal;
    private readonly files;
    /** Requests relayed to the worker and not answered yet: id → op, to check each reply against its op. */
    private readonly relayed;
    private ended;
    /**
     * `channelFd` (session processes only): the descriptor of the worker's own pipe to the server
     * (workers/direct-channel.ts). Requests then go to the worker without passing here, except `read_file`, and
     * replies come back here only when they carry file bytes.
     */
    constructor(options: SupervisorOptions, emit: Emit, onEnd: (description: string) => void, channelFd?: number | null);
    /** Handles one request from the server (already parsed against the contract). */
    handle(request: SessionRequest): void;
    /** Raises KeyboardInterrupt in the worker's Python (SIGINT into its interrupt buffer). */
    interrupt(): void;
    terminate(): Promise<void>;
    private fromWorker;
    /**
     * A reply with file bytes from a worker that has its own pipe: the request never passed here, so the worker names
     * the op (it is as trusted as the rest of this process: the server checks the reply against its own request).
     */
    private fromDirectWorker;
    /** Keeps the bytes of changed files here and passes the change set on as metadata only. */
    private storeFiles;
    /** The session broke a rule it cannot be allowed to break: tell the server (which ends it) and stop the worker. */
    private breach;
    private end;
    private log;
}
