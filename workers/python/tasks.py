"""What of a cell can still run after its code returned: its asyncio tasks, and the worker's answers about its
JavaScript callbacks (workers/thread/realm/cell-scope.ts `idle`) and deferred finalizers
(workers/thread/realm/finalizers.ts)."""
import sys
import warnings
import weakref


class CellTask(object):
    """Marks the asyncio task of a cell with top-level await (so a cell whose value is a task stays a value)."""

    def __init__(self, task):
        self.task = task


_idle_question = []


_drain_question = []


def drain_finalizers():
    """Runs the finalizers the worker deferred (a PyProxy's release, which may run a __del__); only inside a cell."""
    if not _drain_question:
        import pyodide_js

        _drain_question.append(pyodide_js._pyodide_mcp_drain_finalizers)
    _drain_question[0]()


def cell_idle():
    """The worker's answer to "did this cell schedule anything that could run later?" (cell-scope.ts `idle`). The
    function is looked up once (the import and attribute lookup cost as much as the call); user code that swaps it
    can only finish its own cell early (see `idle` there)."""
    try:
        if not _idle_question:
            import pyodide_js

            _idle_question.append(pyodide_js._pyodide_mcp_cell_idle)
        return bool(_idle_question[0]())
    except Exception:
        return False


_NO_TASKS = frozenset()


def current_tasks():
    """The unfinished asyncio tasks of the session's event loop (a weak set; empty while asyncio is unused)."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return _NO_TASKS
    try:
        # Pyodide's WebLoop counts as running (measured on 314): no warnings filter to save and restore, which
        # cost more than the rest of this function (13 us a call). get_event_loop() is the fallback.
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    try:
        if loop is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                loop = asyncio.get_event_loop()
        found = asyncio.all_tasks(loop)
    except Exception:
        return _NO_TASKS
    return weakref.WeakSet(found) if found else _NO_TASKS


def interrupted_error(when):
    return {"type": "KeyboardInterrupt", "message": when, "traceback": "KeyboardInterrupt: %s\n" % (when,)}
