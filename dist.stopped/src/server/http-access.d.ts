/** Host names a loopback server answers to by default. */
export declare const LOOPBACK_NAMES: string[];
/** Whether a bind address only accepts connections from this machine. */
export declare function isLoopback(host: string): boolean;
/**
 * Why the server must not start, or null. Security: without a token, anyone who can reach the port can run code;
 * on loopback that is this machine's users (and DNS rebinding, which the Host check stops), beyond it the network.
 */
export declare function exposureProblem(host: string, authToken: string | null): string | null;
/**
 * A check of the Authorization header against the token; always true without a token. Security: both sides are
 * hashed first, so the comparison is constant-time and does not leak the token's length either.
 */
export declare function bearerCheck(authToken: string | null): (header: string | undefined) => boolean;
/** The host names a server bound to `host` answers to: the operator's list, loopback names on loopback, else any. */
export declare function allowedHostNames(host: string, configured: string[] | null): Set<string> | null;
/**
 * Whether a request's Host and Origin headers name an allowed host (ports are not compared, like the SDK's
 * hostHeaderValidation middleware). Security: a web page that rebinds its own name to 127.0.0.1 sends its own name
 * as Host, and a page of another site sends its Origin; both are refused. Clients outside a browser send no Origin.
 */
export declare function hostAllowed(allowed: Set<string> | null, hostHeader: string | undefined, originHeader: string | undefined): boolean;
