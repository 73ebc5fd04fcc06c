/**
 * Worker for node-lines.test.ts: started with a session worker's execArgv, it reports what the permission model
 * allows on this Node line. It boots no runtime: this is about Node, not Pyodide.
 */
import { readFileSync } from 'node:fs';
import { Worker, parentPort, workerData } from 'node:worker_threads';
const init = workerData;
const permission = process.permission;
const attempt = (action) => {
    try {
        action();
        return 'ok';
    }
    catch (error) {
        return String(error.code ?? error.message);
    }
};
let worker;
const report = {
    active: permission !== undefined,
    has: Object.fromEntries(['fs.write', 'child', 'worker', 'addon'].map((scope) => [scope, permission?.has(scope)])),
    readAllowed: attempt(() => readFileSync(init.allowedFile)),
    readSecret: attempt(() => readFileSync(init.secretFile)),
    binding: attempt(() => process.binding('fs')),
    newWorker: attempt(() => (worker = new Worker('0', { eval: true }))),
};
void worker?.terminate();
parentPort?.postMessage(report);
