import type { Isolation, SessionRequest, SupervisorOptions } from '../contract.js';
/** A running session, wherever it lives. Everything it reports through `onMessage` is untrusted, unparsed data. */
export interface SessionEndpoint {
    /** Process id of the session process (process isolation), for the memory watchdog; null for a thread. */
    readonly pid: number | null;
    send(request: SessionRequest): void;
    /** Raises KeyboardInterrupt in the session's Python. */
    interrupt(): void;
    onMessage(listener: (raw: unknown) => void): void;
    /** The session ended on its own, or broke the framing (`description` says which). */
    onExit(listener: (description: string) => void): void;
    terminate(): Promise<void>;
}
export interface SpawnOptions extends SupervisorOptions {
    isolation: Isolation;
    /** Largest frame accepted from a session process, in bytes. */
    maxFrameBytes: number;
    log: (message: string) => void;
}
export declare function spawnSession(options: SpawnOptions): SessionEndpoint;
