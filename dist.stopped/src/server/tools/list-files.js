import { z } from 'zod';
import { sessionPath, sessionUri } from '../../sandbox/host-paths.js';
import { guarded, ok, optionalArg, pathField, sessionIdField } from './shared.js';
export function registerListFilesTool(server, deps) {
    const { sessions } = deps;
    return server.registerTool('list_files', {
        title: 'List session files',
        description: "Lists files and directories in a session's workspace (answers at once, even while the session runs code).",
        inputSchema: z.strictObject({
            session_id: sessionIdField,
            path: optionalArg(pathField, 'Directory to list (default: the workspace)'),
            recursive: optionalArg(z.boolean(), 'Include subdirectories (default true)'),
        }),
        outputSchema: {
            session_id: z.string(),
            entries: z.array(z.object({
                name: z.string(),
                path: z.string(),
                type: z.enum(['file', 'directory']),
                size: z.number(),
                modified: z.string(),
                uri: z.string(),
            })),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
    }, guarded(deps, async ({ session_id, path, recursive }) => {
        const entries = sessions
            .filesOf(session_id)
            .list(sessionPath(path ?? ''), recursive ?? true)
            .map((entry) => ({ ...entry, uri: sessionUri(session_id, entry.path) }));
        const text = entries.length === 0
            ? 'The workspace is empty.'
            : entries.map((e) => `${e.type === 'directory' ? 'd' : '-'} ${String(e.size).padStart(10)}  ${e.path}`).join('\n');
        return ok({ session_id, entries }, text);
    }));
}
