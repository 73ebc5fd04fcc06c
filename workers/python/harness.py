"""The harness's entry point: the worker calls `entry(request_json)` and gets a JSON string back.

The worker writes this package into the session's file system at boot (as `pyodide_mcp_harness`, this file its
`__init__.py`; workers/thread/python-modules.ts), imports it before any user code runs and keeps a reference to
`entry`, so that user code rebinding names cannot redirect the worker. All data crosses as JSON strings: user code
is never pasted into Python or JavaScript source. Runs unchanged on Python 3.8 (legacy distribution) and 3.14
(modern distribution): no syntax newer than 3.8.
"""
import base64
import builtins
import gc
import json

from . import environment, failed_loads, import_hooks, namespace_ops, packages, sandbox_hints
from .cell import Session
from .display import install_display_helpers

# Part of this module's face, as before the split: a probe (test/security/boundary.test.ts) rebinds its write().
from .streams import BoundedStream  # noqa: F401

environment.prepare_environment()
environment.cap_recursion_limit()
environment.block_in_sleep()
_session = Session()
install_display_helpers(_session.outputs.display_objects, _session.clear_output)
_after_import = import_hooks.install()
failed_loads.install()
sandbox_hints.install(_after_import)
_session.rich_output.install(_after_import)
environment.remember_builtins()
_scratch_session = None


def capture_figures():
    """Called by our matplotlib backend's show()."""
    _session.outputs.capture_figures()


def _session_for(request):
    """The session a cell op acts on: the user's, or (`scratch`) the priming one, which has a namespace and an
    execution count of its own, so that the cells the worker runs to prime its code paths while the session waits
    in the pool (workers/thread/prime.ts) leave nothing the user can see: no variable, no `_`, no count."""
    global _scratch_session
    if not request.get("scratch"):
        return _session
    if _scratch_session is None:
        _scratch_session = Session({"__name__": "__warm_up__", "__builtins__": builtins})
    return _scratch_session


def _run(request):
    return _cell_half(request, "run")


def _finish(request):
    return _cell_half(request, "finish")


def _cell_half(request, half):
    session = _session_for(request)
    try:
        return session.run(request) if half == "run" else session.finish(request)
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


def _tasks(request):
    try:
        return json.dumps(_session_for(request).pending_tasks())
    except KeyboardInterrupt:
        return json.dumps(-1)  # the host's interrupt: the worker stops waiting


def _namespace_op(request):
    return namespace_ops.run_op(_session, request["op"], request)


def _outside_cells(handler):
    """The worker's own work (outside a cell, no time limit) runs with Python's cyclic garbage collector paused: a
    collection there would run the __del__ of the user's unreachable cycles outside any cell. They are collected by
    the next cell's allocations instead."""

    def without_collection(request):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return handler(request)
        finally:
            if enabled:
                gc.enable()

    return without_collection


@_outside_cells
def _configure(request):
    _session.outputs.figure_formats = list(request["figure_formats"])
    environment.quiet_package_syntax_warnings()
    return json.dumps(environment.errnos())


@_outside_cells
def _imported_names(request):
    return json.dumps(packages.imported_names(request["code"]))


@_outside_cells
def _import_modules(request):
    # What the preload set's imports add to builtins is part of a fresh session too.
    before = set(vars(builtins))
    reply = json.dumps(packages.import_preloaded(request["names"]))
    environment.remember_builtins(set(vars(builtins)) - before)
    return reply


@_outside_cells
def _install_wheel(request):
    return json.dumps(packages.install_wheel(request["filename"], base64.b64decode(request["data"])))


# The ops the worker may send: op → (handler, the request's fields). Mirrors harnessRequestSchemas in
# src/wire/contract.ts (test/wire/contract.test.ts checks that the two agree and that each handler is defined here).
HARNESS_OPS = {
    "configure": (_configure, ["figure_formats"]),
    "import_modules": (_import_modules, ["names"]),
    "imported_names": (_imported_names, ["code"]),
    "run": (_run, ["code", "limits", "filename", "call", "scratch", "stream"]),
    "list_variables": (_namespace_op, ["filter", "max_items", "repr_chars"]),
    "inspect_variable": (_namespace_op, ["name", "detail", "text_chars"]),
    "remove_variables": (_namespace_op, ["names"]),
    "reset": (_namespace_op, ["clear_files"]),
    "install_wheel": (_install_wheel, ["filename", "data"]),
    "finish": (_finish, ["interrupted", "callback_errors", "more_errors", "pending_timers", "scratch"]),
    "tasks": (_tasks, ["scratch"]),
}


def entry(request_json):
    request = json.loads(request_json)
    op = request.get("op", "run")
    if op not in HARNESS_OPS:
        raise ValueError("unknown harness op: %r" % (op,))
    return HARNESS_OPS[op][0](request)
