"""One interpreter namespace and its cells: a cell runs in two halves (`run`, then `finish` once the worker has let
its callbacks and asyncio tasks run), with its output captured in bounded streams, and ends as one JSON outcome."""
import builtins
import errno as _errno
import json
import linecache
import os
import re
import sys
import traceback

from .cell_code import run_code
from .display import Display
from .environment import CELL_FILE_PREFIX
from .rich_output import RichOutput
from .sandbox_hints import hint_for
from .namespace_ops import call_function
from .streams import BoundedStream, LiveOutput, bounded
from .tasks import CellTask, cell_idle, current_tasks, drain_finalizers, interrupted_error

# This package's files: the frames a user's traceback starts with, which it does not show.
_HARNESS_DIR = os.path.dirname(__file__) + os.sep
_QUOTA_ERRNOS = (_errno.ENOSPC, _errno.EFBIG, getattr(_errno, "EDQUOT", -1))
# Built-in types have no _repr_*_ methods, and none can be added to them: their values skip the display protocol.
_SCALAR_TYPES = frozenset((int, float, complex, bool, str, bytes, type(None)))


_NOTEBOOK_PACKAGE = "/lib/pyodide_mcp/pyodide_mcp_notebook/"
# A line starting with %, ! or ?, a trailing ?, or `x = !cmd`: only cells with one of these load the notebook
# package (workers/python/notebook_syntax.py, written at boot by workers/thread/python-modules.ts).
_NOTEBOOK_SYNTAX = re.compile(r"^[ \t]*[%!?]|\?[ \t]*$|=[ \t]*[!%][^=]", re.M)


def _notebook_syntax(code):
    from pyodide_mcp_notebook import magics, notebook_syntax

    magics.install()
    return notebook_syntax.transform_cell(code)


def _is_success(exit):
    """A SystemExit that a shell would count as success: sys.exit(), sys.exit(0), sys.exit(None)."""
    return exit.code is None or exit.code == 0


def _user_frames(tb):
    """Drops the harness's own frames so the traceback starts at the user's code, and the notebook package's (the
    machinery of a magic or a `!` command, workers/python/magics.py) wherever they are."""
    while tb is not None and tb.tb_frame.f_code.co_filename.startswith(_HARNESS_DIR):
        tb = tb.tb_next
    kept = []
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_NOTEBOOK_PACKAGE):
            kept.append(tb)
        tb = tb.tb_next
    for current, following in zip(kept, kept[1:] + [None]):
        current.tb_next = following
    return kept[0] if kept else None


class Session:
    """One interpreter namespace: what persists between cells."""

    def __init__(self, namespace=None):
        # The user's namespace is the real __main__, as in a notebook: classes defined in a cell pickle,
        # and `import __main__` sees the user's variables (and not the harness's). The warm-up's scratch session
        # (see _session_for) gets a dict of its own instead.
        self.namespace = sys.modules["__main__"].__dict__ if namespace is None else namespace
        # Tracebacks quote the user's cells from linecache; the scratch session's cells are not kept there.
        self.keeps_source = namespace is None
        self.namespace.setdefault("__builtins__", builtins)
        # What a fresh namespace holds (reset_session restores it): taken before any user code ran.
        self.pristine = dict(self.namespace)
        self.execution_count = 0
        self.outputs = Display(lambda: self.execution_count)
        # Charts a notebook draws in the browser (Plotly), saved as this session's outputs (rich_output.py).
        self.rich_output = RichOutput(self.outputs.save_output)
        self._cell = None
        # What runs at the start of each cell, inside its capture and time limit (%autoreload's check); added by the
        # notebook package.
        self.before_cell = []

    def run(self, request):
        """First half of a cell: runs its code with output captured, and leaves the capture in place so that the
        cell's callbacks and asyncio tasks, which the worker lets run next, print into it. Returns the marker
        {"settle": true, ...}; `finish` then returns the cell's outcome."""
        self.abandon()  # a cell the worker could not finish (an error between the halves)
        limits = request["limits"]
        self.execution_count += 1
        self.outputs.start_cell()
        filename = request.get("filename") or "%s%d>" % (CELL_FILE_PREFIX, self.execution_count)
        # The browser view's live output, when the host asked for it (only while it serves a view).
        live = LiveOutput() if request.get("stream") else None
        stdout = BoundedStream("stdout", limits["stdout"], live)
        stderr = BoundedStream("stderr", limits["stderr"], live)
        cell = self._cell = {
            "limits": limits,
            "stdout": stdout,
            "stderr": stderr,
            "saved": (sys.stdout, sys.stderr),
            "value": None,
            "error": None,
            "task": None,
            "tasks_before": current_tasks(),
            # Someone watches this session in the view: its last value's HTML is made for the view too.
            "rich": bool(request.get("stream")),
        }
        sys.stdout, sys.stderr = stdout, stderr
        try:
            # Objects the JavaScript garbage collector released since the last cell: their __del__ runs now, under
            # this cell's time limit and interrupt, printing into its output (workers/thread/realm/finalizers.ts).
            drain_finalizers()
            for hook in list(self.before_cell):
                hook()
            if request.get("call"):
                value = call_function(self.namespace, request["call"])
            else:
                value = self._run_cell(request["code"], filename)
            if isinstance(value, CellTask):
                cell["task"] = value.task
            else:
                cell["value"] = value
        except SystemExit as exc:
            # A script's sys.exit(0) (`if __name__ == "__main__": sys.exit(main())`) ends run_file as a success, as
            # IPython's %run treats it; in a cell, as in IPython, it is reported.
            if not (_is_success(exc) and not filename.startswith(CELL_FILE_PREFIX)):
                cell["error"] = self._describe(exc)
        except BaseException as exc:  # noqa: B036 - KeyboardInterrupt and the rest are reported too
            cell["error"] = self._describe(exc)
        interrupted = cell["error"] is not None and cell["error"]["type"] == "KeyboardInterrupt"
        tasks = self.pending_tasks()
        if tasks == 0 and cell_idle():
            # Nothing of this cell can still run (no asyncio task, no JavaScript callback): finish in this call,
            # with nothing left over to report.
            cell["settled"] = True
            return self.finish({})
        return json.dumps({"settle": True, "interrupted": interrupted, "tasks": tasks})

    def clear_output(self, wait=False):
        """IPython's clear_output() in a cell: what the cell printed and displayed so far is dropped from its reply (the
        files it saved stay), so a loop that redraws its progress returns only its last state. `wait` changes nothing:
        it keeps a notebook from flickering between the clear and the next output, and a reply does not flicker."""
        cell = self._cell
        if cell is None:
            return
        for stream in (cell["stdout"], cell["stderr"]):
            stream.clear()
        self.outputs.items = []

    def pending_tasks(self):
        """asyncio tasks started during the current cell (including its top-level await) not finished yet."""
        cell = self._cell
        if cell is None:
            return 0
        pending = 0
        if cell["task"] is not None and not cell["task"].done():
            pending += 1
        for task in current_tasks():
            if task is not cell["task"] and task not in cell["tasks_before"] and not task.done():
                pending += 1
        return pending

    def finish(self, request):
        """Second half of a cell, once the worker has let its callbacks run: the outcome as JSON."""
        cell, self._cell = self._cell, None
        if cell is None:
            raise RuntimeError("no cell is running")
        limits, stdout, stderr = cell["limits"], cell["stdout"], cell["stderr"]
        result = None
        result_html = None
        error = cell["error"]
        try:
            task = cell["task"]
            value = cell["value"]
            if error is None and task is not None:
                if not task.done():
                    error = interrupted_error("while awaiting the cell's top-level await")
                elif task.cancelled():
                    error = {"type": "CancelledError", "message": "the cell's task was cancelled", "traceback": ""}
                elif task.exception() is not None:
                    error = self._describe(task.exception())
                else:
                    value = task.result()
            if error is None and request.get("interrupted"):
                error = interrupted_error("while the cell's callbacks or asyncio tasks were still running")
            if error is None and value is not None:
                self.namespace["_"] = value
                # A chart is shown as a notebook shows it, instead of its repr (rich_output.py). Otherwise: a
                # notebook shows HTML for the last value; a model reads the text repr better, so HTML is kept for
                # explicit display() calls.
                if not self.rich_output.show_value(value):
                    self.outputs.show_rich(value, html=False)
                    result = repr(value)
                    if cell["rich"]:
                        result_html = _html_of(value, limits["result"])
        except BaseException as exc:  # noqa: B036
            error = self._describe(exc)
        finally:
            try:
                self._report_leftovers(cell, request)
            except Exception:
                pass
            # Figures left open are shown, as a notebook would, even when the cell raised.
            try:
                self.outputs.capture_figures()
            except Exception as exc:
                stderr.write("pyodide-mcp: could not save a figure: %s\n" % (exc,))
            sys.stdout, sys.stderr = cell["saved"]
        truncated = {}
        if stdout.omitted:
            truncated["stdout"] = stdout.omitted
        if stderr.omitted:
            truncated["stderr"] = stderr.omitted
        result, omitted = bounded(result, limits["result"])
        if omitted:
            truncated["result"] = omitted
        if error is not None:
            error["traceback"], omitted = bounded(error["traceback"], limits["traceback"])
            if omitted:
                truncated["traceback"] = omitted
            # The message is cut here too, not only by the host: a 50-million-character message crossing into
            # JavaScript whole ended a legacy session (its worker reached its heap limit).
            error["message"], omitted = bounded(error["message"], limits["traceback"])
            if omitted:
                truncated["error"] = omitted
        return json.dumps(
            {
                "stdout": stdout.getvalue(),
                "stderr": stderr.getvalue(),
                "result": result,
                "error": error,
                "execution_count": self.execution_count,
                "truncated": truncated or None,
                "display": self.outputs.items,
                "result_html": result_html,
            }
        )

    def abandon(self):
        """A cell that cannot finish normally (an interrupt hit the harness itself): output capture is undone."""
        cell, self._cell = self._cell, None
        if cell is not None:
            sys.stdout, sys.stderr = cell["saved"]

    def _report_leftovers(self, cell, request):
        """Tells the user, on the cell's stderr, what of the cell's background work did not run."""
        stderr = cell["stderr"]
        for text in request.get("callback_errors") or ():
            stderr.write("pyodide-mcp: exception in a JavaScript callback of this cell: %s\n" % (text.rstrip(),))
        if request.get("more_errors"):
            stderr.write("(%d more callback exception(s) not shown)\n" % (request["more_errors"],))
        # A cell finished in one call had no task left a moment ago; if no user code ran since (its value is a
        # built-in scalar: no display protocol, no user repr), there is none now.
        quiet = cell.get("settled") and cell["task"] is None and type(cell["value"]) in _SCALAR_TYPES
        left = [] if quiet else [task for task in current_tasks() if task is not cell["task"] and task not in cell["tasks_before"] and not task.done()]
        if left:
            stderr.write(
                "pyodide-mcp: %d asyncio task(s) started by this cell had not finished when it ended; they will not "
                "run any further (a cell waits for its tasks only until its time limit).\n" % (len(left),)
            )
        if request.get("pending_timers"):
            stderr.write(
                "pyodide-mcp: %d JavaScript timer(s) of this cell had not fired when it ended and were cancelled "
                "(callbacks run only while their cell runs).\n" % (request["pending_timers"],)
            )

    def _run_cell(self, code, filename):
        # Register the source so tracebacks can show the offending line.
        if self.keeps_source:
            linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        if filename.startswith(CELL_FILE_PREFIX) and ("%" in code or "!" in code or "?" in code) and _NOTEBOOK_SYNTAX.search(code):
            code = _notebook_syntax(code)  # a .py file run by run_file stays plain Python, as under IPython's %run
        return run_code(code, filename, self.namespace)

    def _describe(self, exc):
        if isinstance(exc, SyntaxError):
            lines = traceback.format_exception_only(type(exc), exc)
        else:
            lines = traceback.format_exception(type(exc), exc, _user_frames(exc.__traceback__))
        message = str(exc)
        if isinstance(exc, OSError) and exc.errno in _QUOTA_ERRNOS:
            message += " (the session's file quota was reached: see server_info for the limits; delete files to make room)"
        hint = hint_for(exc)
        if hint is not None:
            message += "\n" + hint
        return {
            "type": type(exc).__name__,
            "message": message,
            "traceback": "".join(lines),
        }


def _html_of(value, limit):
    """A value's own HTML (pandas' table for a DataFrame), or None: none, not a string, it raised, or longer than
    `limit` (cut HTML would be broken markup; the view shows the text repr then)."""
    method = getattr(type(value), "_repr_html_", None)
    if method is None:
        return None
    try:
        html = method(value)
    except Exception:
        return None
    if not isinstance(html, str) or len(html) > limit:
        return None
    return html
