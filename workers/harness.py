"""Runs one notebook-style cell inside a Pyodide session.

The worker loads this file as its own module (`pyodide_mcp_harness`, not `__main__`), keeps a
reference to `entry`, and calls `entry(request_json)` to get a JSON string back. All data crosses
as JSON strings: user code is never pasted into Python or JavaScript source.
Runs unchanged on Python 3.8 (legacy distribution) and 3.14 (modern distribution).
"""
import ast
import builtins
import io
import json
import linecache
import sys
import traceback

_CELL_PREFIX = "<cell-"


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
    """Drops the harness's own frames so the traceback starts at the user's cell."""
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(_CELL_PREFIX):
        tb = tb.tb_next
    return tb


class Session:
    """One interpreter namespace: what persists between cells."""

    def __init__(self):
        # The user's namespace is the real __main__, as in a notebook: classes defined in a cell pickle,
        # and `import __main__` sees the user's variables (and not the harness's).
        self.namespace = sys.modules["__main__"].__dict__
        self.namespace.setdefault("__builtins__", builtins)
        self.execution_count = 0

    def run(self, request):
        limits = request["limits"]
        self.execution_count += 1
        filename = "%s%d>" % (_CELL_PREFIX, self.execution_count)
        stdout = BoundedStream("stdout", limits["stdout"])
        stderr = BoundedStream("stderr", limits["stderr"])
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = stdout, stderr
        result = None
        error = None
        try:
            value = self._run_cell(request["code"], filename)
            if value is not None:
                self.namespace["_"] = value
                result = repr(value)
        except BaseException as exc:  # noqa: B036 - SystemExit and KeyboardInterrupt are reported too
            error = self._describe(exc)
        finally:
            sys.stdout, sys.stderr = saved
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
        return json.dumps(
            {
                "stdout": stdout.getvalue(),
                "stderr": stderr.getvalue(),
                "result": result,
                "error": error,
                "execution_count": self.execution_count,
                "truncated": truncated or None,
            }
        )

    def _run_cell(self, code, filename):
        # Register the source so tracebacks can show the offending line.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        tree = ast.parse(code, filename, "exec")
        last_expr = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last_expr = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, "exec"), self.namespace)
        if last_expr is not None:
            return eval(compile(last_expr, filename, "eval"), self.namespace)
        return None

    def _describe(self, exc):
        if isinstance(exc, SyntaxError):
            lines = traceback.format_exception_only(type(exc), exc)
        else:
            lines = traceback.format_exception(type(exc), exc, _user_frames(exc.__traceback__))
        return {
            "type": type(exc).__name__,
            "message": str(exc),
            "traceback": "".join(lines),
        }


def import_preloaded(names):
    """Imports the preload set into sys.modules (so a user's `import numpy` costs nothing) and
    returns {name: version}. Touches nothing in the user's namespace."""
    import importlib

    versions = {}
    for name in names:
        module = importlib.import_module(name)
        versions[name] = str(getattr(module, "__version__", ""))
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


_session = Session()


def entry(request_json):
    request = json.loads(request_json)
    op = request.get("op", "run")
    if op == "run":
        return _session.run(request)
    if op == "imports":
        return json.dumps(imported_names(request["code"]))
    if op == "import":
        return json.dumps(import_preloaded(request["names"]))
    raise ValueError("unknown harness op: %r" % (op,))
