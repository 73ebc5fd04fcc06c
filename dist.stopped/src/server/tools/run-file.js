import { z } from 'zod';
import { sessionPath } from '../../sandbox/host-paths.js';
import { executionOutputShape, runWithProgress, timeoutFor } from '../execution-reply.js';
import { guarded, pathField, sessionIdField, timeoutField } from './shared.js';
export function registerRunFileTool(server, deps) {
    const { sessions, config } = deps;
    return server.registerTool('run_file', {
        title: 'Run a Python file',
        description: "Runs a .py file from the session workspace in the session's namespace (like %run -i): its variables persist. Same reply as execute_code.",
        inputSchema: z.strictObject({
            session_id: sessionIdField,
            path: pathField,
            timeout_seconds: timeoutField(config),
        }),
        outputSchema: executionOutputShape,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    }, guarded(deps, async ({ session_id, path, timeout_seconds }, extra) => {
        const rel = sessionPath(path);
        sessions.filesOf(session_id).sizeOf(rel); // a clear FILE_NOT_FOUND before queueing
        return runWithProgress(deps, session_id, { path: rel }, timeoutFor(config, timeout_seconds), extra);
    }));
}
