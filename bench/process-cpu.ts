/** CPU time of a process tree read from /proc (Linux): the server and, under --isolation process, its sessions. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux's supported architectures). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time used so far by a process and all its descendants, in ms (processes that exited are not counted). */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks = Number(fields[11]) + Number(fields[12]);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) ticks += (treeCpuMs(Number(child)) * TICKS_PER_SECOND) / 1000;
    }
  } catch {
    // The process exited meanwhile.
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Resolves once the process tree is idle: under 5 % of one core over a second (the pool booted, preloads and priming
 * done). Throws after `timeoutMs`.
 */
export async function untilIdle(pid: number, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let before = treeCpuMs(pid);
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = treeCpuMs(pid);
    if (now - before < 50) return;
    before = now;
  }
  throw new Error('the server did not become idle');
}
