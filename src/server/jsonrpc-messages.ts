/**
 * What the HTTP server reads of a parsed JSON-RPC body before the SDK sees it: how many requests it holds (each
 * takes a place in --max-client-requests), which requests it cancels (their streams are closed, http-server.ts) and
 * whether it opens a 2026-07-28 listen stream (not a call: a drain does not wait for it).
 */
/** How many JSON-RPC requests (not notifications or responses) a parsed body holds. */
export function requestCount(body: unknown): number {
  const isRequest = (m: unknown) =>
    typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string' && 'id' in m;
  return Array.isArray(body) ? body.filter(isRequest).length : isRequest(body) ? 1 : 0;
}

/** The request ids a parsed body cancels (notifications/cancelled). */
export function cancelledIds(body: unknown): (string | number)[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m: unknown) => {
    const message = m as { method?: unknown; params?: { requestId?: unknown } } | null;
    const id = message?.method === 'notifications/cancelled' ? message.params?.requestId : undefined;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}

/**
 * Whether a parsed body is a 2026-07-28 `subscriptions/listen` request: its response is a stream that stays open for
 * as long as the client listens, not a call that ends.
 */
export function isListenRequest(body: unknown): boolean {
  const message = body as { method?: unknown; id?: unknown } | null;
  return !Array.isArray(body) && typeof message === 'object' && message?.method === 'subscriptions/listen' && 'id' in message;
}
