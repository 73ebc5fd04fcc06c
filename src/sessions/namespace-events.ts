/**
 * "A session's namespace is gone": the session ended (closed, expired, dead; not at shutdown) or was reset. What was
 * published from the namespace (register_tool) listens, and goes with it.
 */
export class NamespaceEvents {
  private readonly listeners: ((id: string) => void)[] = [];

  constructor(private readonly log: (message: string) => void) {}

  /** Calls `listener` with the id of every session whose namespace goes from now on; returns how to stop. */
  on(listener: (id: string) => void): () => void {
    this.listeners.push(listener);
    // Over HTTP a server (and its listener) lives as long as one client: it must be able to leave.
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  /** Tells every listener; one that throws is logged and does not keep the others from hearing. */
  gone(id: string): void {
    for (const listener of this.listeners) {
      try {
        listener(id);
      } catch (error) {
        this.log(`session end listener failed: ${(error as Error).message}`);
      }
    }
  }
}
