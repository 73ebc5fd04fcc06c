import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { sessionPath } from '../../sandbox/host-paths.js';
import { guarded, ok, pathField, sessionIdField } from './shared.js';
export function registerDeleteFileTool(server, deps) {
    const { sessions } = deps;
    return server.registerTool('delete_file', {
        title: 'Delete a session file',
        description: 'Deletes a file (or an empty directory) from a session workspace.',
        inputSchema: z.strictObject({ session_id: sessionIdField, path: pathField }),
        outputSchema: { session_id: z.string(), path: z.string(), deleted: z.boolean() },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    }, guarded(deps, async ({ session_id, path }) => {
        const rel = sessionPath(path);
        if (rel === '')
            throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; it cannot be deleted.');
        await sessions.deleteFile(session_id, rel);
        return ok({ session_id, path: rel, deleted: true }, `Deleted ${rel}.`);
    }));
}
