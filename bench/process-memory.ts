/** Memory of a process tree read from /proc (Linux): the server and, under --isolation process, its sessions. */
import { readdirSync, readFileSync } from 'node:fs';

/** A kB figure of a process and all its descendants (session processes under --isolation process), in MB. */
function treeMb(pid: number, file: string, field: RegExp): number {
  let total = Number(field.exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))![1]) / 1024;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of children ? children.split(/\s+/) : []) total += treeMb(Number(child), file, field);
  }
  return total;
}

/** Resident memory of a process tree. */
export const rssMb = (pid: number) => treeMb(pid, 'status', /VmRSS:\s+(\d+)/);

/**
 * Proportional set size of a process tree: each shared page (the node binary's code, shared libraries) counted
 * once across all processes that map it, instead of once in every one as RSS does. What adding a session costs.
 */
export const pssMb = (pid: number) => treeMb(pid, 'smaps_rollup', /^Pss:\s+(\d+)/m);
