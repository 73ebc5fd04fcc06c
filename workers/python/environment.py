"""The interpreter as a session finds it: the workspace as working directory, our matplotlib backend, the cap on
the recursion limit, quiet package warnings, and the builtins a reset restores."""
import builtins
import errno as _errno
import os
import sys
import warnings

WORKSPACE = "/workspace"
# The file name of a cell's code ("<cell-3>"): tracebacks, warnings and get_ipython() tell cells from files by it.
CELL_FILE_PREFIX = "<cell-"

# Security: the highest recursion limit a cell may set. Python frames and C frames (repr, json, pickle, map,
# __getattr__...) share the worker thread's JavaScript stack (16 MB, src/supervisor/supervisor.ts); overflowing it is a
# fatal Pyodide error, not a RecursionError. Measured in a worker thread with Node's default 4 MB stack (Node 20.20),
# the recursion depth at which the stack overflowed (the 16 MB stack only adds headroom):
#   Python 3.14 (pyodide 314): plain Python recursion ~100,000 (on unwinding); through __repr__ 960, map() 1,064,
#     __getattr__ 1,083 levels; repr/json/pickle/deepcopy of a 200,000-deep list overflow at the default limit too.
#   Python 3.8 (pyodide 0.17): plain Python recursion 2,126; through __getattr__ 1,066, map() 796 levels (= limit
#     1,592); C recursion counts against the limit there, so 1,000 stops all of these with a RecursionError.
# Above the default of 1000, recursion through C overflows on both, so that is the cap. What still overflows below
# it ends the session with that reason (the worker reports it; see workers/thread/realm/cell-scope.ts fatalReason).
_MAX_RECURSION_LIMIT = 1000


def prepare_environment():
    os.makedirs(WORKSPACE, exist_ok=True)
    os.chdir(WORKSPACE)
    # Cells and run_file run in __main__'s namespace, named "__main__" as in CPython, Jupyter and the modern runtime:
    # Pyodide 0.17 named it "builtins", so `if __name__ == "__main__":` blocks did not run and pickle could not find
    # a class defined in a cell.
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__name__", None) != "__main__":
        main.__name__ = "__main__"
    # The working directory first on the import path, as in Jupyter and in the modern runtime (whose sys.path starts
    # with ''): `import helper` finds the session's helper.py. Pyodide 0.17 has no such entry.
    if "" not in sys.path:
        sys.path.insert(0, "")
        _fresh_workspace_imports()
    # Figures go through our own matplotlib backend (Agg plus a show() that captures), which the worker wrote beside
    # this package (workers/thread/python-modules.ts). Set before anything imports pyplot.
    os.environ["MPLBACKEND"] = "module://pyodide_mcp_backend"


def _fresh_workspace_imports():
    """Imports from the workspace see the files as they are now. Pyodide 0.17's file system does not change a
    directory's modification time when a file is added, and CPython's finder trusts that time to tell when to list
    the directory again: a module written after the first import from the workspace was not found (measured:
    `open("h1.py", "w")...; import h1` failed after an earlier failed import). Workspace directories get a finder
    that lists them again at each lookup of a module not imported yet."""
    from importlib import _bootstrap_external, machinery

    details = _bootstrap_external._get_supported_file_loaders()

    class WorkspaceFinder(machinery.FileFinder):
        def find_spec(self, fullname, target=None):
            self.invalidate_caches()
            return machinery.FileFinder.find_spec(self, fullname, target)

    def workspace_hook(path):
        full = os.path.abspath(path or os.getcwd())
        if full == WORKSPACE or full.startswith(WORKSPACE + "/"):
            return WorkspaceFinder(path, *details)
        raise ImportError("not in the workspace")

    sys.path_hooks.insert(0, workspace_hook)
    for path in [path for path in sys.path_importer_cache if path == WORKSPACE or path.startswith(WORKSPACE + "/")]:
        del sys.path_importer_cache[path]


def quiet_package_syntax_warnings():
    """SyntaxWarnings that CPython raises while compiling a package's own files on import (`import scipy` on
    Python 3.8 printed three `"is" with a literal`) say nothing about the user's code, so they are not shown. A
    compiler warning's module is its file name without .py; packages and the standard library live under
    /lib/python3.x/, the user's cells and files (/workspace) keep their warnings."""
    warnings.filterwarnings("ignore", category=SyntaxWarning, module=r"/lib/python3")


def cap_recursion_limit():
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


# The longest sleep CPython accepts: its clock counts nanoseconds in a signed 64-bit integer.
_MAX_SLEEP_SECONDS = (2**63 - 1) / 1e9


def block_in_sleep():
    """time.sleep waits for real without using the CPU, and an interrupt (the cell's time limit, interrupt_session)
    ends it at once with KeyboardInterrupt: neither runtime's own sleep does (workers/thread/blocking-sleep.ts says
    what each does). Arguments are checked as CPython checks them."""
    import operator
    import time

    original = time.sleep
    monotonic = time.monotonic
    waits = []

    def sleep(secs):
        if not isinstance(secs, float):
            secs = operator.index(secs)
        if secs != secs:
            raise ValueError("Invalid value NaN (not a number)")
        if secs < 0:
            raise ValueError("sleep length must be non-negative")
        if secs >= _MAX_SLEEP_SECONDS:
            raise OverflowError("timestamp too large to convert to C _PyTime_t")
        if not waits:
            # Defined by the lockdown, after this module is imported (workers/thread/realm/lockdown.ts).
            import pyodide_js

            waits.append(pyodide_js._pyodide_mcp_sleep)
        deadline = monotonic() + secs
        first = True
        while True:
            # What the cell printed before it slept reaches a browser view now, or after the first short wait (the
            # streams' rate allows a send every 50 ms: workers/python/streams.py).
            _flush(sys.stdout)
            _flush(sys.stderr)
            remaining = deadline - monotonic()
            if remaining <= 0:
                return
            waits[0](min(remaining, 0.06) if first else remaining)
            first = False

    sleep.__doc__ = original.__doc__
    time.sleep = sleep


def _flush(stream):
    try:
        stream.flush()
    except Exception:  # a cell's own stream: its flush failing must not fail the sleep
        pass


def errnos():
    names = ("ENOSPC", "EFBIG", "EDQUOT", "ENOENT", "EEXIST", "EISDIR", "EACCES")
    return {name: getattr(_errno, name, -1) for name in names}


# What a fresh session's builtins module holds (reset_session restores it): taken before any user code ran, so that
# a `builtins.print` hook or a `builtins.x` set by a cell does not outlive a reset, as it would not a kernel restart.
_PRISTINE_BUILTINS = {}
_MISSING = object()


def remember_builtins(names=None):
    """Adds the builtins module's current contents (or only `names` of it) to what a reset restores."""
    current = vars(builtins)
    _PRISTINE_BUILTINS.update(current if names is None else {name: current[name] for name in names})


def restore_builtins():
    current = vars(builtins)
    for name in [name for name in current if name not in _PRISTINE_BUILTINS]:
        del current[name]
    for name, value in _PRISTINE_BUILTINS.items():
        if current.get(name, _MISSING) is not value:
            current[name] = value
