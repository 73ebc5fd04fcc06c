import type { MessagePort } from 'node:worker_threads';
import type { SessionRequest } from '../src/contract.js';
export interface DirectChannel {
    /** Starts reading requests (after boot; until then they wait in the pipe). */
    listen(onRequest: (request: SessionRequest) => void): void;
    /** Where the worker's guarded post sends (createGuardedPost): replies here or through the supervisor. */
    readonly router: {
        postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
    };
}
export declare function openDirectChannel(fd: number, port: MessagePort): DirectChannel;
