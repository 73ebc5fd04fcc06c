/** Ops whose reply is a cell outcome with its change set in `changes`. */
export const CHANGES_IN_OUTCOME = new Set(['execute', 'run_file', 'call_function', 'reset']);
/** Ops whose reply is the change set itself. */
export const CHANGES_ARE_REPLY = new Set(['write_file', 'delete_file']);
