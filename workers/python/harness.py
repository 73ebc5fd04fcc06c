"""Runs one notebook-style cell inside a Pyodide session.

The worker loads this file as its own module (`pyodide_mcp_harness`, not `__main__`), keeps a
reference to `entry`, and calls `entry(request_json)` to get a JSON string back. All data crosses
as JSON strings: user code is never pasted into Python or JavaScript source.
Runs unchanged on Python 3.8 (legacy distribution) and 3.14 (modern distribution).
"""
import ast
import base64
import builtins
import errno as _errno
import gc
import io
import json
import linecache
import os
import re
import sys
import traceback
import types
import warnings
import weakref

_CELL_PREFIX = "<cell-"
_HARNESS_FILE = "pyodide_mcp_harness.py"
WORKSPACE = "/workspace"
FIGURE_DIR = "figures"
_QUOTA_ERRNOS = (_errno.ENOSPC, _errno.EFBIG, getattr(_errno, "EDQUOT", -1))
# Cells may use top-level `await` (the worker keeps the event loop turning until the cell's tasks finish, see
# workers/thread/realm/cell-scope.ts). Measured before: a SyntaxError there; asyncio.run() and run_until_complete()
# still fail as they did (Pyodide 314 needs WebAssembly stack switching, which Node 20 lacks).
_TOP_LEVEL_AWAIT = getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
_CO_COROUTINE = 0x0080

# Security: the highest recursion limit a cell may set. Python frames and C frames (repr, json, pickle, map,
# __getattr__...) share the worker thread's JavaScript stack (16 MB, src/supervisor/supervisor.ts); overflowing it is a
# fatal Pyodide error, not a RecursionError. Measured in a worker thread with Node's default 4 MB stack (Node 20.20),
# the recursion depth at which the stack overflowed (the 16 MB stack only adds headroom):
#   Python 3.14 (pyodide 314): plain Python recursion ~100,000 (on unwinding); through __repr__ 960, map() 1,064,
#     __getattr__ 1,083 levels; repr/json/pickle/deepcopy of a 200,000-deep list overflow at the default limit too.
#   Python 3.8 (pyodide 0.17): plain Python recursion 2,126; through __getattr__ 1,066, map() 796 levels (= limit
#     1,592); C recursion counts against the limit there, so 1,000 stops all of these with a RecursionError.
# Above the default of 1000, recursion through C overflows on both, so that is the cap. What still overflows below
# it ends the session with that reason (the worker reports it; see workers/thread/realm/fatal-reason.ts).
_MAX_RECURSION_LIMIT = 1000

# Figures go through our own matplotlib backend (Agg plus a show() that captures), written where
# matplotlib can import it. Set before anything imports pyplot; the worker loads us before preloading.
_BACKEND_DIR = "/lib/pyodide_mcp"
_BACKEND_SOURCE = """
from matplotlib.backends.backend_agg import FigureCanvasAgg as FigureCanvas
from matplotlib.backend_bases import FigureManagerBase as FigureManager


def show(*args, **kwargs):
    import pyodide_mcp_harness
    pyodide_mcp_harness.capture_figures()
"""


class BoundedStream(io.TextIOBase):
    """A text stream that keeps at most `limit` characters and counts the rest.

    Why: memory held for output must not grow with what user code prints.
    """

    def __init__(self, name, limit):
        super().__init__()
        self.name = name
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.omitted = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not " + type(text).__name__)
        room = self.limit - self.kept
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.kept += len(piece)
            self.omitted += len(text) - len(piece)
        else:
            self.omitted += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"

    def getvalue(self):
        return "".join(self.parts)


def _bounded(text, limit):
    """Returns (kept text, omitted character count)."""
    if text is None or len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def _user_frames(tb):
    """Drops the harness's own frames so the traceback starts at the user's code."""
    while tb is not None and tb.tb_frame.f_code.co_filename == _HARNESS_FILE:
        tb = tb.tb_next
    return tb


class Session:
    """One interpreter namespace: what persists between cells."""

    def __init__(self, namespace=None):
        # The user's namespace is the real __main__, as in a notebook: classes defined in a cell pickle,
        # and `import __main__` sees the user's variables (and not the harness's). The priming's scratch session
        # (see _session_for) gets a dict of its own instead.
        self.namespace = sys.modules["__main__"].__dict__ if namespace is None else namespace
        # Tracebacks quote the user's cells from linecache; the scratch session's cells are not kept there.
        self.keeps_source = namespace is None
        self.namespace.setdefault("__builtins__", builtins)
        # What a fresh namespace holds (reset_session restores it): taken before any user code ran.
        self.pristine = dict(self.namespace)
        self.execution_count = 0
        self.figure_formats = ["png"]
        self.display = []
        self._outputs_this_cell = 0
        self._cell = None

    def run(self, request):
        """First half of a cell: runs its code with output captured, and leaves the capture in place so that the
        cell's callbacks and asyncio tasks, which the worker lets run next, print into it. Returns the marker
        {"settle": true, ...}; `finish` then returns the cell's outcome."""
        self.abandon()  # a cell the worker could not finish (an error between the halves)
        limits = request["limits"]
        self.execution_count += 1
        self.display = []
        self._outputs_this_cell = 0
        filename = request.get("filename") or "%s%d>" % (_CELL_PREFIX, self.execution_count)
        stdout = BoundedStream("stdout", limits["stdout"])
        stderr = BoundedStream("stderr", limits["stderr"])
        cell = self._cell = {
            "limits": limits,
            "stdout": stdout,
            "stderr": stderr,
            "saved": (sys.stdout, sys.stderr),
            "value": None,
            "error": None,
            "task": None,
            "tasks_before": _current_tasks(),
        }
        sys.stdout, sys.stderr = stdout, stderr
        try:
            # Objects the JavaScript garbage collector released since the last cell: their __del__ runs now, under
            # this cell's time limit and interrupt, printing into its output (workers/thread/realm/finalizers.ts).
            _drain_finalizers()
            if request.get("call"):
                value = _call_function(request["call"])
            else:
                value = self._run_cell(request["code"], filename)
            if isinstance(value, _CellTask):
                cell["task"] = value.task
            else:
                cell["value"] = value
        except BaseException as exc:  # noqa: B036 - SystemExit and KeyboardInterrupt are reported too
            cell["error"] = self._describe(exc)
        interrupted = cell["error"] is not None and cell["error"]["type"] == "KeyboardInterrupt"
        tasks = self.pending_tasks()
        if tasks == 0 and _cell_idle():
            # Nothing of this cell can still run (no asyncio task, no JavaScript callback): finish in this call,
            # with nothing left over to report.
            cell["settled"] = True
            return self.finish({})
        return json.dumps({"settle": True, "interrupted": interrupted, "tasks": tasks})

    def pending_tasks(self):
        """asyncio tasks started during the current cell (including its top-level await) not finished yet."""
        cell = self._cell
        if cell is None:
            return 0
        pending = 0
        if cell["task"] is not None and not cell["task"].done():
            pending += 1
        for task in _current_tasks():
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
        error = cell["error"]
        try:
            task = cell["task"]
            value = cell["value"]
            if error is None and task is not None:
                if not task.done():
                    error = _interrupted("while awaiting the cell's top-level await")
                elif task.cancelled():
                    error = {"type": "CancelledError", "message": "the cell's task was cancelled", "traceback": ""}
                elif task.exception() is not None:
                    error = self._describe(task.exception())
                else:
                    value = task.result()
            if error is None and request.get("interrupted"):
                error = _interrupted("while the cell's callbacks or asyncio tasks were still running")
            if error is None and value is not None:
                self.namespace["_"] = value
                # A notebook shows HTML for the last value; a model reads the text repr better, so
                # HTML is kept for explicit display() calls.
                self.show_rich(value, html=False)
                result = repr(value)
        except BaseException as exc:  # noqa: B036
            error = self._describe(exc)
        finally:
            try:
                self._report_leftovers(cell, request)
            except Exception:
                pass
            # Figures left open are shown, as a notebook would, even when the cell raised.
            try:
                self.capture_figures()
            except Exception as exc:
                stderr.write("pyodide-mcp: could not save a figure: %s\n" % (exc,))
            sys.stdout, sys.stderr = cell["saved"]
        truncated = {}
        if stdout.omitted:
            truncated["stdout"] = stdout.omitted
        if stderr.omitted:
            truncated["stderr"] = stderr.omitted
        result, omitted = _bounded(result, limits["result"])
        if omitted:
            truncated["result"] = omitted
        if error is not None:
            error["traceback"], omitted = _bounded(error["traceback"], limits["traceback"])
            if omitted:
                truncated["traceback"] = omitted
            # The message is cut here too, not only by the host: a 50-million-character message crossing into
            # JavaScript whole ended a legacy session (its worker reached its heap limit).
            error["message"], omitted = _bounded(error["message"], limits["traceback"])
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
                "display": self.display,
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
        left = [] if quiet else [task for task in _current_tasks() if task is not cell["task"] and task not in cell["tasks_before"] and not task.done()]
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

    def _output_path(self, extension):
        self._outputs_this_cell += 1
        directory = os.path.join(WORKSPACE, FIGURE_DIR)
        os.makedirs(directory, exist_ok=True)
        name = "cell%d_%d.%s" % (self.execution_count, self._outputs_this_cell, extension)
        return os.path.join(directory, name)

    def capture_figures(self):
        """Saves every open matplotlib figure into the workspace and closes it."""
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is None:
            return
        for number in list(plt.get_fignums()):
            figure = plt.figure(number)
            self._outputs_this_cell += 1
            for fmt in self.figure_formats:
                os.makedirs(os.path.join(WORKSPACE, FIGURE_DIR), exist_ok=True)
                name = "cell%d_%d.%s" % (self.execution_count, self._outputs_this_cell, fmt)
                path = os.path.join(WORKSPACE, FIGURE_DIR, name)
                figure.savefig(path, format=fmt, bbox_inches="tight")
                mime = "image/svg+xml" if fmt == "svg" else "image/" + fmt
                self.display.append({"mime_type": mime, "path": os.path.relpath(path, WORKSPACE)})
            plt.close(figure)

    def show_rich(self, value, html=True):
        """Honours the IPython display protocol: _repr_png_/_repr_svg_ become image files, and
        _repr_html_/_repr_markdown_/_repr_latex_ become text outputs. Returns True if anything was shown."""
        if isinstance(value, type) or type(value) in _PLAIN_TYPES:
            return False
        shown = False
        for method, extension, mime in (("_repr_png_", "png", "image/png"), ("_repr_svg_", "svg", "image/svg+xml")):
            data = _call_repr(value, method)
            if not data:
                continue
            if extension == "png" and isinstance(data, str):
                data = base64.b64decode(data)
            path = self._output_path(extension)
            with open(path, "wb" if isinstance(data, bytes) else "w") as handle:
                handle.write(data)
            self.display.append({"mime_type": mime, "path": os.path.relpath(path, WORKSPACE)})
            shown = True
        for method, mime in (("_repr_markdown_", "text/markdown"), ("_repr_latex_", "text/latex"), ("_repr_html_", "text/html")):
            if mime == "text/html" and not html:
                continue
            data = _call_repr(value, method)
            if isinstance(data, str) and data:
                self.display.append({"mime_type": mime, "text": data})
                shown = True
                break
        return shown

    def display_objects(self, *objects):
        """`display(...)` inside user code: rich outputs when the object has them, else its repr on stdout."""
        for obj in objects:
            if not self.show_rich(obj):
                print(repr(obj))

    def _run_cell(self, code, filename):
        # Register the source so tracebacks can show the offending line.
        if self.keeps_source:
            linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        body, last = _compile_expression(code, filename)
        if last is None:
            tree = ast.parse(code, filename, "exec")
            last_expr = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last_expr = ast.Expression(tree.body.pop().value)
            body = compile(tree, filename, "exec", flags=_TOP_LEVEL_AWAIT)
            last = compile(last_expr, filename, "eval", flags=_TOP_LEVEL_AWAIT) if last_expr is not None else None
        if ((body.co_flags if body is not None else 0) | (last.co_flags if last is not None else 0)) & _CO_COROUTINE:
            # Top-level await: the cell becomes an asyncio task; the worker waits for it, `finish` reports it.
            import asyncio

            return _CellTask(asyncio.ensure_future(self._run_async(body, last)))
        if body is not None:
            exec(body, self.namespace)
        if last is not None:
            return eval(last, self.namespace)
        return None

    async def _run_async(self, body, last):
        pending = eval(body, self.namespace) if body is not None else None
        if body is not None and body.co_flags & _CO_COROUTINE:
            await pending
        if last is None:
            return None
        value = eval(last, self.namespace)
        if last.co_flags & _CO_COROUTINE:
            value = await value
        return value

    def _describe(self, exc):
        if isinstance(exc, SyntaxError):
            lines = traceback.format_exception_only(type(exc), exc)
        else:
            lines = traceback.format_exception(type(exc), exc, _user_frames(exc.__traceback__))
        message = str(exc)
        if isinstance(exc, OSError) and exc.errno in _QUOTA_ERRNOS:
            message += " (the session's file quota was reached: see server_info for the limits; delete files to make room)"
        return {
            "type": type(exc).__name__,
            "message": message,
            "traceback": "".join(lines),
        }


# First words of a line that is a statement, never an expression (the cell then goes through the AST at once).
_STATEMENT_WORDS = frozenset(
    "assert async break class continue def del for from global if import nonlocal pass raise return try while with".split()
)


def _compile_expression(code, filename):
    """A one-line cell that is a single expression compiles once, in eval mode: (None, code object). The general
    path (parse, split off the last expression, compile both halves) costs about three times as much (measured in
    Pyodide 314: 72 us against 26 us for "1+1"). Anything else: (None, None)."""
    stripped = code.strip()
    if not stripped or "\n" in stripped or stripped.split(None, 1)[0] in _STATEMENT_WORDS:
        return None, None
    try:
        return None, compile(code, filename, "eval", flags=_TOP_LEVEL_AWAIT)
    except SyntaxError:
        return None, None


def _call_repr(value, method):
    function = getattr(value, method, None)
    if not callable(function):
        return None
    try:
        return function()
    except Exception:
        return None


class _CellTask(object):
    """Marks the asyncio task of a cell with top-level await (so a cell whose value is a task stays a value)."""

    def __init__(self, task):
        self.task = task


_idle_question = []


_drain_question = []


def _drain_finalizers():
    """Runs the finalizers the worker deferred (a PyProxy's release, which may run a __del__); only inside a cell."""
    if not _drain_question:
        import pyodide_js

        _drain_question.append(pyodide_js._pyodide_mcp_drain_finalizers)
    _drain_question[0]()


def _cell_idle():
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
# Built-in types have no _repr_*_ methods, and none can be added to them: their values skip the display protocol.
_SCALAR_TYPES = frozenset((int, float, complex, bool, str, bytes, type(None)))
_PLAIN_TYPES = frozenset((int, float, complex, bool, str, bytes, list, tuple, dict, set, frozenset, type(None)))


def _current_tasks():
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


def _interrupted(when):
    return {"type": "KeyboardInterrupt", "message": when, "traceback": "KeyboardInterrupt: %s\n" % (when,)}


def _quiet_package_syntax_warnings():
    """SyntaxWarnings that CPython raises while compiling a package's own files on import (`import scipy` on
    Python 3.8 printed three `"is" with a literal`) say nothing about the user's code, so they are not shown. A
    compiler warning's module is its file name without .py; packages and the standard library live under
    /lib/python3.x/, the user's cells and files (/workspace) keep their warnings."""
    warnings.filterwarnings("ignore", category=SyntaxWarning, module=r"/lib/python3")


def _cap_recursion_limit():
    """sys.setrecursionlimit accepts at most _MAX_RECURSION_LIMIT (higher values are lowered, with a warning)."""
    original = sys.setrecursionlimit

    def setrecursionlimit(limit):
        import operator

        limit = operator.index(limit)
        if limit > _MAX_RECURSION_LIMIT:
            warnings.warn(
                "sys.setrecursionlimit(%d) was lowered to %d: deeper recursion would overflow the JavaScript stack "
                "of this sandbox, which ends the session" % (limit, _MAX_RECURSION_LIMIT),
                RuntimeWarning,
                stacklevel=2,
            )
            limit = _MAX_RECURSION_LIMIT
        original(limit)

    setrecursionlimit.__doc__ = original.__doc__
    sys.setrecursionlimit = setrecursionlimit
    if sys.getrecursionlimit() > _MAX_RECURSION_LIMIT:
        original(_MAX_RECURSION_LIMIT)


def _install_display_helpers(session):
    """`display` as a builtin, and a minimal IPython.display when IPython itself is not installed,
    because model-written notebook code often does `from IPython.display import display, HTML`."""
    builtins.display = session.display_objects
    try:
        import IPython  # noqa: F401
        return
    except ImportError:
        pass

    class _Text(object):
        def __init__(self, data):
            self.data = data

    class HTML(_Text):
        def _repr_html_(self):
            return self.data

    class Markdown(_Text):
        def _repr_markdown_(self):
            return self.data

    class Latex(_Text):
        def _repr_latex_(self):
            return self.data

    ipython = types.ModuleType("IPython")
    # Libraries probe `IPython.get_ipython()` when IPython is imported (matplotlib does); None = no shell.
    ipython.get_ipython = lambda: None
    display_module = types.ModuleType("IPython.display")
    for name, item in (("display", session.display_objects), ("HTML", HTML), ("Markdown", Markdown), ("Latex", Latex)):
        setattr(display_module, name, item)
    ipython.display = display_module
    sys.modules.setdefault("IPython", ipython)
    sys.modules.setdefault("IPython.display", display_module)


def _prepare_environment():
    os.makedirs(WORKSPACE, exist_ok=True)
    os.chdir(WORKSPACE)
    os.makedirs(_BACKEND_DIR, exist_ok=True)
    with open(os.path.join(_BACKEND_DIR, "pyodide_mcp_backend.py"), "w") as handle:
        handle.write(_BACKEND_SOURCE)
    if _BACKEND_DIR not in sys.path:
        sys.path.append(_BACKEND_DIR)
    os.environ["MPLBACKEND"] = "module://pyodide_mcp_backend"


def install_wheel(filename, data):
    """Unpacks a pure-Python wheel (fetched and verified by the server) into site-packages."""
    import importlib
    import sysconfig
    import zipfile

    target = sysconfig.get_paths()["purelib"]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.namelist():
            # A wheel's paths are relative; refuse anything that would land outside site-packages.
            destination = os.path.realpath(os.path.join(target, member))
            if not destination.startswith(os.path.realpath(target) + os.sep):
                raise ValueError("unsafe path in wheel %s: %r" % (filename, member))
        archive.extractall(target)
    importlib.invalidate_caches()
    return None


def errnos():
    names = ("ENOSPC", "EFBIG", "EDQUOT", "ENOENT", "EEXIST", "EISDIR", "EACCES")
    return {name: getattr(_errno, name, -1) for name in names}


def import_preloaded(names):
    """Imports the preload set into sys.modules (so a user's `import numpy` costs nothing) and
    returns {name: version}. Touches nothing in the user's namespace."""
    import importlib

    versions = {}
    for name in names:
        module = importlib.import_module(name)
        versions[name] = str(getattr(module, "__version__", ""))
        if name == "matplotlib":
            # The first plot of a session should not pay for pyplot, its backend and the font cache
            # either: draw one throwaway figure now, while the session is still in the warm pool.
            pyplot = importlib.import_module("matplotlib.pyplot")
            figure = pyplot.figure()
            figure.gca().plot([0, 1])
            figure.gca().set_title("warm-up")
            figure.canvas.draw()
            pyplot.close(figure)
    return versions


def imported_names(code):
    """Top-level module names that `code` imports anywhere (e.g. `import a.b` and `from a import c` → "a").
    Absolute imports only; code that does not parse imports nothing (the run reports the SyntaxError)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return sorted(names)


_prepare_environment()
_cap_recursion_limit()
_session = Session()
_install_display_helpers(_session)
# What a fresh session's builtins module holds (reset_session restores it): taken before any user code ran, so that
# a `builtins.print` hook or a `builtins.x` set by a cell does not outlive a reset, as it would not a kernel restart.
_PRISTINE_BUILTINS = dict(vars(builtins))


def _restore_builtins():
    current = vars(builtins)
    for name in [name for name in current if name not in _PRISTINE_BUILTINS]:
        del current[name]
    for name, value in _PRISTINE_BUILTINS.items():
        if current.get(name, _MISSING) is not value:
            current[name] = value


def capture_figures():
    """Called by our matplotlib backend's show()."""
    _session.capture_figures()


# ---------------------------------------------------------------------------------------------------------------
# The namespace, seen from outside a cell: list, inspect, call, remove, reset (src/wire/contract.ts, "namespace").
# Names arrive as data and are resolved with getattr only; nothing here evaluates a string as code.

_DOTTED_NAME = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


class _NamespaceError(Exception):
    """A namespace request the caller can fix: answered as {"ok": false, "code", "message"}."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _type_name(value):
    cls = type(value)
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", cls.__name__)
    return name if module in (None, "builtins") else "%s.%s" % (module, name)


def _kind(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    return "variable"


def _short_repr(value, limit):
    """A bounded repr: containers are abbreviated by reprlib before any long string is built."""
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = max(limit, 10)
    shortener.maxlist = shortener.maxtuple = shortener.maxset = shortener.maxdict = 20
    try:
        text = shortener.repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: B036 - a user __repr__ may raise anything
        text = "<repr failed: %s>" % (type(exc).__name__,)
    return text[:limit]


def _finite(number):
    try:
        number = float(number)
    except Exception:
        return None
    return number if number == number and number not in (float("inf"), float("-inf")) else None


def _data_facts(value):
    """shape, dtype and size_bytes of numpy arrays and pandas objects; None for everything else."""
    facts = {"shape": None, "dtype": None, "size_bytes": None}
    module = getattr(type(value), "__module__", "") or ""
    if not (module.startswith("numpy") or module.startswith("pandas")):
        return facts
    try:
        shape = getattr(value, "shape", None)
        if isinstance(shape, tuple) and all(isinstance(n, int) for n in shape):
            facts["shape"] = list(shape)[:64]
        dtypes = getattr(value, "dtypes", None)
        if dtypes is not None and hasattr(dtypes, "unique") and not hasattr(value, "dtype"):
            facts["dtype"] = ", ".join(sorted(set(str(t) for t in dtypes)))
        elif getattr(value, "dtype", None) is not None:
            facts["dtype"] = str(value.dtype)
        if hasattr(value, "nbytes") and not hasattr(value, "memory_usage"):
            facts["size_bytes"] = int(value.nbytes)
        elif hasattr(value, "memory_usage"):
            usage = value.memory_usage(deep=False)
            facts["size_bytes"] = int(usage.sum() if hasattr(usage, "sum") else usage)
    except KeyboardInterrupt:
        raise
    except Exception:
        pass
    return facts


def _resolve(name):
    """The object a name or dotted path names: the namespace first, then builtins; attributes by getattr."""
    if not isinstance(name, str) or not _DOTTED_NAME.match(name):
        raise _NamespaceError("INVALID_INPUT", "%r is not a name or a dotted path of names (like df.columns)" % (name,))
    parts = name.split(".")
    namespace = _session.namespace
    if parts[0] in namespace:
        value = namespace[parts[0]]
    elif hasattr(builtins, parts[0]):
        value = getattr(builtins, parts[0])
    else:
        import difflib

        close = difflib.get_close_matches(parts[0], [n for n in namespace if not n.startswith("_")], 3)
        hint = " (did you mean %s?)" % (", ".join(close),) if close else ""
        raise _NamespaceError(
            "NAME_NOT_FOUND", "%r is not defined in the session's namespace%s; list_variables shows what is" % (parts[0], hint)
        )
    for index, part in enumerate(parts[1:], 1):
        try:
            value = getattr(value, part)
        except KeyboardInterrupt:
            raise
        except Exception:
            raise _NamespaceError("NAME_NOT_FOUND", "%s has no attribute %r" % (".".join(parts[:index]), part))
    return value


_MISSING = object()


def list_variables(request):
    pattern = request.get("filter") or ""
    wildcard = any(c in pattern for c in "*?[")
    import fnmatch

    matched = []
    for name in sorted(_session.namespace):
        if name.startswith("_"):
            continue
        # Pyodide 0.17 (legacy) starts __main__ with every builtin copied in: those are not the user's variables
        # (a name the user rebinds is no longer the builtin, and is listed).
        if getattr(builtins, name, _MISSING) is _session.namespace[name]:
            continue
        if pattern and not (fnmatch.fnmatch(name, pattern) if wildcard else pattern.lower() in name.lower()):
            continue
        matched.append(name)
    variables = []
    for name in matched[: int(request["max_items"])]:
        value = _session.namespace.get(name)
        facts = _data_facts(value)
        if facts["shape"] is not None:
            text = "%s of shape %s" % (type(value).__name__, tuple(facts["shape"]))
        elif isinstance(value, types.ModuleType):
            text = "<module %r>" % (getattr(value, "__name__", name),)
        else:
            text = " ".join(_short_repr(value, int(request["repr_chars"]) * 2).split())[: int(request["repr_chars"])]
        entry = {"name": name, "type": _type_name(value), "kind": _kind(value), "repr": text}
        entry.update(facts)
        variables.append(entry)
    return {"variables": variables, "total": len(matched)}


def _text(value, limit):
    return None if value is None else str(value)[:limit]


def _parameters(value):
    import inspect

    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None, None
    parameters = []
    for parameter in list(signature.parameters.values())[:500]:
        annotation = parameter.annotation
        if annotation is inspect.Parameter.empty:
            annotation = None
        elif isinstance(annotation, type):
            annotation = annotation.__name__
        else:
            annotation = str(annotation).replace("typing.", "")
        has_default = parameter.default is not inspect.Parameter.empty
        variadic = parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        parameters.append(
            {
                "name": parameter.name,
                "kind": parameter.kind.name,
                "annotation": annotation,
                "default": _short_repr(parameter.default, 200) if has_default else None,
                "required": not has_default and not variadic,
            }
        )
    return str(signature), parameters


def inspect_variable(request):
    import inspect

    name, limit, detail = request["name"], int(request["text_chars"]), bool(request["detail"])
    value = _resolve(name)
    kind = _kind(value)
    out = {
        "name": name,
        "type": _type_name(value),
        "kind": kind,
        "repr": _short_repr(value, limit),
        "doc": None,
        "signature": None,
        "parameters": None,
        "source": None,
        "length": None,
        "columns": None,
        "head": None,
        "describe": None,
        "stats": None,
        "attributes": None,
    }
    out.update(_data_facts(value))
    if kind != "variable":
        # An instance's docstring is its class's: noise for a variable, the point for a function or class.
        out["doc"] = _text(inspect.getdoc(value), limit)
    if kind in ("function", "class"):
        out["signature"], out["parameters"] = _parameters(value)
    if kind in ("function", "class") or (kind == "module" and detail):
        try:
            out["source"] = _text(inspect.getsource(value), limit)
        except (OSError, TypeError):
            pass
    if kind == "variable":
        try:
            out["length"] = len(value)
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    module = getattr(type(value), "__module__", "") or ""
    if module.startswith("pandas"):
        try:
            dtypes = getattr(value, "dtypes", None)
            if dtypes is not None and hasattr(dtypes, "items") and not hasattr(value, "dtype"):
                out["columns"] = [{"name": str(c), "dtype": str(t)} for c, t in list(dtypes.items())[:1000]]
            if hasattr(value, "head"):
                out["head"] = _text(value.head().to_string(), limit)
            if hasattr(value, "describe"):
                out["describe"] = _text(value.describe().to_string(), limit)
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    if module.startswith(("numpy", "pandas")) and getattr(value, "dtype", None) is not None:
        try:
            if value.dtype.kind in "iufb" and value.size > 0:
                out["stats"] = {"min": _finite(value.min()), "max": _finite(value.max()), "mean": _finite(value.mean())}
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    if detail:
        try:
            out["attributes"] = [a for a in dir(value) if not a.startswith("_")][:1000]
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    return out


def remove_variables(request):
    removed, not_found = [], []
    for name in request["names"]:
        if name.startswith("__") and name.endswith("__"):
            raise _NamespaceError("INVALID_INPUT", "%s belongs to the interpreter and cannot be removed" % (name,))
        if name in _session.namespace:
            del _session.namespace[name]
            removed.append(name)
        else:
            not_found.append(name)
    return {"removed": removed, "not_found": not_found}


def reset(request):
    """A fresh namespace, as after a kernel restart: user names go, modules stay imported, figures close, the
    execution count starts again; the workspace files go too when asked."""
    namespace = _session.namespace
    names = [name for name in namespace if not name.startswith("_") and name not in _session.pristine]
    namespace.clear()
    namespace.update(_session.pristine)
    _restore_builtins()
    _session.execution_count = 0
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")
    if request.get("clear_files"):
        import shutil

        for entry in os.listdir(WORKSPACE):
            path = os.path.join(WORKSPACE, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
    return {"removed": len(names)}


_NAMESPACE_OPS = {
    "list_variables": list_variables,
    "inspect_variable": inspect_variable,
    "remove_variables": remove_variables,
    "reset": reset,
}


def _namespace_op(op, request):
    """Runs a namespace op with anything user code prints (a __repr__, a property) thrown away."""
    sink = BoundedStream("discarded", 0)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = sink, sink
    try:
        _drain_finalizers()
        return json.dumps({"ok": True, "value": _NAMESPACE_OPS[op](request)})
    except _NamespaceError as exc:
        return json.dumps({"ok": False, "code": exc.code, "message": str(exc)})
    except KeyboardInterrupt:
        return json.dumps({"ok": False, "code": "INTERRUPTED", "message": "interrupted"})
    except BaseException as exc:  # noqa: B036 - user code reached through a property may raise anything
        return json.dumps({"ok": False, "code": "FAILED", "message": "%s: %s" % (type(exc).__name__, exc)})
    finally:
        sys.stdout, sys.stderr = saved


def _call_function(call):
    """call_function: the namespace function `call["name"]` called with JSON arguments, inside a cell."""
    try:
        function = _resolve(call["name"])
    except _NamespaceError as exc:
        raise (NameError if exc.code == "NAME_NOT_FOUND" else ValueError)(str(exc))
    if not callable(function):
        raise TypeError("%s is not callable (it is a %s); inspect_variable shows what it is" % (call["name"], _type_name(function)))
    value = function(*call.get("args", []), **call.get("kwargs", {}))
    if type(value).__name__ == "coroutine":
        import asyncio

        return _CellTask(asyncio.ensure_future(value))
    return value


# The ops the worker may send, with their fields: mirrors harnessRequestSchemas in src/wire/contract.ts
# (test/wire/contract.test.ts checks that the two agree).
HARNESS_OPS = {
    "configure": ["figure_formats"],
    "import_modules": ["names"],
    "imported_names": ["code"],
    "run": ["code", "limits", "filename", "call", "scratch"],
    "list_variables": ["filter", "max_items", "repr_chars"],
    "inspect_variable": ["name", "detail", "text_chars"],
    "remove_variables": ["names"],
    "reset": ["clear_files"],
    "install_wheel": ["filename", "data"],
    "finish": ["interrupted", "callback_errors", "more_errors", "pending_timers", "scratch"],
    "tasks": ["scratch"],
}


_scratch_session = None


def _session_for(request):
    """The session a cell op acts on: the user's, or (`scratch`) the priming's, which has a namespace and an
    execution count of its own, so that the cells the worker runs to warm its code paths up while the session waits
    in the pool (workers/thread/prime.ts) leave nothing the user can see: no variable, no `_`, no count."""
    global _scratch_session
    if not request.get("scratch"):
        return _session
    if _scratch_session is None:
        _scratch_session = Session({"__name__": "__warm_up__", "__builtins__": builtins})
    return _scratch_session


def entry(request_json):
    request = json.loads(request_json)
    op = request.get("op", "run")
    if op == "tasks":
        try:
            return json.dumps(_session_for(request).pending_tasks())
        except KeyboardInterrupt:
            return json.dumps(-1)  # the host's interrupt: the worker stops waiting
    if op in ("run", "finish"):
        session = _session_for(request)
        try:
            return session.run(request) if op == "run" else session.finish(request)
        except KeyboardInterrupt:
            # A repeated interrupt that arrived after the user's code had stopped, while the harness was
            # building the reply: the cell was interrupted either way.
            session.abandon()
            return json.dumps(
                {
                    "stdout": "",
                    "stderr": "",
                    "result": None,
                    "error": {"type": "KeyboardInterrupt", "message": "", "traceback": "KeyboardInterrupt\n"},
                    "execution_count": session.execution_count,
                    "truncated": None,
                    "display": [],
                }
            )
    if op in ("list_variables", "inspect_variable", "remove_variables", "reset"):
        return _namespace_op(op, request)
    return _without_collection(_host_op, op, request)


def _without_collection(call, *args):
    """Runs the worker's own work (outside a cell, no time limit) with Python's cyclic garbage collector paused: a
    collection there would run the __del__ of the user's unreachable cycles outside any cell. They are collected by
    the next cell's allocations instead."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return call(*args)
    finally:
        if enabled:
            gc.enable()


def _host_op(op, request):
    if op == "imported_names":
        return json.dumps(imported_names(request["code"]))
    if op == "import_modules":
        # What the preload set's imports add to builtins is part of a fresh session too.
        before = set(vars(builtins))
        reply = json.dumps(import_preloaded(request["names"]))
        _PRISTINE_BUILTINS.update({name: vars(builtins)[name] for name in set(vars(builtins)) - before})
        return reply
    if op == "install_wheel":
        return json.dumps(install_wheel(request["filename"], base64.b64decode(request["data"])))
    if op == "configure":
        _session.figure_formats = list(request["figure_formats"])
        _quiet_package_syntax_warnings()
        return json.dumps(errnos())
    raise ValueError("unknown harness op: %r" % (op,))
