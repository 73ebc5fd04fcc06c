/**
 * The server's total memory budget (--max-total-memory-mb): every session may grow to --max-session-memory-mb, and
 * the server's own JavaScript heap may grow to V8's heap limit, so --max-sessions × --max-session-memory-mb + that
 * heap limit must fit in the budget. Checked once, when the configuration is built (`fitMemoryBudget`, pure: the
 * machine's figures are passed in), and again at every session start against what is measured (the manager asks the
 * warm pool, which owns the memory watchdog).
 *
 * Warm sessions are not added on top: the pool never holds more than --max-sessions minus the live sessions
 * (src/sessions/warm-pool.ts, target()), so at most --max-sessions session processes exist at once.
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { UsageError } from '../errors.js';

/** The share of the machine's (or the cgroup's) memory the default budget takes: the rest is for the system. */
export const DEFAULT_BUDGET_SHARE = 0.9;

/** What the budget is computed from. */
export interface MachineMemory {
  /** Memory this process may use: the machine's, or its cgroup's limit when that is lower, in MB. */
  memoryMb: number;
  /** Where `memoryMb` comes from, for messages ("this machine's memory", "the cgroup's memory limit"). */
  source: string;
  /** V8's heap_size_limit of this process (what --max-old-space-size sets), in MB. */
  heapLimitMb: number;
}

/** This process's figures. */
export function machineMemory(): MachineMemory {
  const machineMb = Math.floor(totalmem() / 2 ** 20);
  // libuv reads the cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes, at this process's cgroup path); without
  // one it answers 0 or a huge number, depending on the version.
  const constrained = (process as { constrainedMemory?: () => number }).constrainedMemory?.() ?? 0;
  const cgroupMb = Math.floor(constrained / 2 ** 20);
  const heapLimitMb = Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20);
  return cgroupMb > 0 && cgroupMb < machineMb
    ? { memoryMb: cgroupMb, source: "the cgroup's memory limit", heapLimitMb }
    : { memoryMb: machineMb, source: "this machine's memory", heapLimitMb };
}

/** The budget in force, as the configuration holds it. */
export interface MemoryBudget {
  /** --max-total-memory-mb, given or derived. */
  totalMb: number;
  /** The server's heap limit counted in it. */
  serverHeapMb: number;
  /** How the budget was set, for messages: "--max-total-memory-mb" or "90 % of 24105 MB, this machine's memory". */
  origin: string;
  /** A line to log once at start when a default was lowered to fit (null when nothing was). */
  note: string | null;
}

/** The settings that take part, whether each was given (argv, env, option) or is its default, and their names. */
export interface BudgetInput {
  maxSessions: number;
  sessionMb: number;
  totalMb: number | undefined;
  explicit: { maxSessions: boolean; sessionMb: boolean };
  /** The names errors use: --max-sessions for the CLI, maxSessions for createSandbox(). */
  names: { maxSessions: string; sessionMb: string; totalMb: string };
}

/** The smallest --max-session-memory-mb (its schema's minimum). */
const MIN_SESSION_MB = 128;

/**
 * Fits sessions into the budget. A default that does not fit yields (--max-sessions first, down to 1; then
 * --max-session-memory-mb, down to 128), and `note` says so with the arithmetic; so the server starts with default
 * flags on any machine. A configuration whose given values cannot fit is refused with a UsageError that gives the
 * arithmetic and what to lower.
 */
export function fitMemoryBudget(
  input: BudgetInput,
  machine: MachineMemory,
): { maxSessions: number; sessionMb: number; budget: MemoryBudget } {
  const { names, explicit } = input;
  const heap = machine.heapLimitMb;
  const total = input.totalMb ?? Math.floor(machine.memoryMb * DEFAULT_BUDGET_SHARE);
  const origin =
    input.totalMb === undefined
      ? `${names.totalMb} defaults to ${DEFAULT_BUDGET_SHARE * 100} % of ${machine.memoryMb} MB, ${machine.source}`
      : `${names.totalMb} ${total}`;
  const need = (sessions: number, sessionMb: number) => sessions * sessionMb + heap;
  const sum = (sessions: number, sessionMb: number) =>
    `${sessions} session${sessions === 1 ? '' : 's'} (${names.maxSessions}) × ${sessionMb} MB (${names.sessionMb}) + ${heap} MB (the server's heap limit: V8's heap_size_limit, set by node --max-old-space-size) = ${need(sessions, sessionMb)} MB`;
  let { maxSessions, sessionMb } = input;
  const lowered: string[] = [];
  if (need(maxSessions, sessionMb) > total && !explicit.maxSessions) {
    const fit = Math.max(1, Math.floor((total - heap) / sessionMb));
    if (fit < maxSessions) {
      lowered.push(`${names.maxSessions} from ${maxSessions} to ${fit}`);
      maxSessions = fit;
    }
  }
  // Only when --max-sessions is a default too: sessions smaller than asked, when a number of them was asked for, would
  // be ended where the operator expects them to run.
  if (need(maxSessions, sessionMb) > total && !explicit.maxSessions && !explicit.sessionMb) {
    const fit = Math.max(MIN_SESSION_MB, Math.floor((total - heap) / maxSessions));
    if (fit < sessionMb) {
      lowered.push(`${names.sessionMb} from ${sessionMb} to ${fit}`);
      sessionMb = fit;
    }
  }
  const fits = need(maxSessions, sessionMb) <= total;
  if (!fits && (explicit.maxSessions || explicit.sessionMb || input.totalMb !== undefined)) {
    const room = total - heap;
    const ways = [
      room >= sessionMb ? `lower ${names.maxSessions} to at most ${Math.floor(room / sessionMb)}` : null,
      room >= MIN_SESSION_MB * maxSessions ? `lower ${names.sessionMb} to at most ${Math.floor(room / maxSessions)}` : null,
      `raise ${names.totalMb} to at least ${need(maxSessions, sessionMb)}${input.totalMb === undefined ? ` (above ${DEFAULT_BUDGET_SHARE * 100} % of ${machine.source}: the system may run out of memory)` : ''}`,
    ].filter(Boolean);
    throw new UsageError(
      `The sessions do not fit in the memory budget${lowered.length > 0 ? ` even with ${lowered.join(' and ')} (defaults, lowered as far as they go)` : ''}: ${sum(maxSessions, sessionMb)}, more than ${total} MB (${origin}). To fix it, ${ways.join(', or ')}.`,
    );
  }
  const note =
    lowered.length === 0
      ? null
      : fits
        ? `memory budget: lowered ${lowered.join(' and ')} (defaults) so that the sessions fit: ${sum(maxSessions, sessionMb)} ≤ ${total} MB (${origin}). Set ${names.maxSessions}, ${names.sessionMb} or ${names.totalMb} to choose otherwise.`
        : `memory budget: lowered ${lowered.join(' and ')} (defaults), and still ${sum(maxSessions, sessionMb)}, more than ${total} MB (${origin}): this machine has less memory than one session needs.`;
  return { maxSessions, sessionMb, budget: { totalMb: total, serverHeapMb: heap, origin, note } };
}
