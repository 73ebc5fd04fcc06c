/**
 * Why recently gone sessions are gone (closed, expired, dead), so that a late caller gets that reason instead of a
 * bare "not found" or, worse, a silent new session. Bounded: the oldest entries are forgotten first.
 */
import type { PyodideMcpError } from '../errors.js';

export class Graveyard {
  private readonly reasons = new Map<string, PyodideMcpError>();

  constructor(private readonly size = 1000) {}

  bury(id: string, reason: PyodideMcpError): void {
    this.reasons.delete(id);
    this.reasons.set(id, reason);
    if (this.reasons.size > this.size) this.reasons.delete(this.reasons.keys().next().value!);
  }

  /** The reason a session is gone, if it was seen going. */
  reasonFor(id: string): PyodideMcpError | undefined {
    return this.reasons.get(id);
  }
}
