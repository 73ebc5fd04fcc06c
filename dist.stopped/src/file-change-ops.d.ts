/**
 * Which replies report file changes, and where: the supervisor keeps the bytes of those changes, and a worker with
 * its own pipe sends such replies through the supervisor. Without dependencies: the worker imports it and must not
 * load zod (its permission model reads only our own code and the distribution).
 */
import type { Op } from './contract.js';
/** Ops whose reply is a cell outcome with its change set in `changes`. */
export declare const CHANGES_IN_OUTCOME: ReadonlySet<Op>;
/** Ops whose reply is the change set itself. */
export declare const CHANGES_ARE_REPLY: ReadonlySet<Op>;
