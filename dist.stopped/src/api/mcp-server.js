import { createSandbox, serveMcp } from './sandbox.js';
/**
 * An SDK McpServer with every tool and the session:// resources of the command. Its client sees only the sessions it
 * created; closing the server (`server.close()`, or its transport closing) closes them, and the sandbox too when
 * the server made its own.
 */
export async function createMcpServer(options = {}) {
    const shared = 'sandbox' in options ? options.sandbox : undefined;
    const sandbox = shared ?? (await createSandbox(options));
    let server;
    try {
        ({ server } = sandbox[serveMcp]());
    }
    catch (error) {
        // A bad tools/profile option (TypeError naming it): the sandbox made for this server must not linger.
        if (!shared)
            await sandbox.close();
        throw error;
    }
    if (!shared) {
        // The server's own sandbox ends with it (its sessions were closed by the server's own onclose).
        const closeSessions = server.server.onclose;
        server.server.onclose = () => {
            closeSessions?.();
            void sandbox.close();
        };
    }
    return server;
}
