"""What this sandbox lacks on purpose, said where user code meets it.

A model that sees `unknown url type: https` or `[Errno 29] I/O error` cannot tell a sandbox without network or
stdin from a bug in its code, and spends turns on it. So an error caused by a missing network, stdin, process, thread or
browser gets one line saying so and what to do instead (`hint_for`). Every such line starts with NOTE: the host's
legacy-version hint (src/python/legacy-hint.ts) leaves those errors alone, since they are no version gap.

Also the stand-ins themselves: stdin, which has nothing to read, and Pyodide 0.17's webbrowser stub, which lacked the
names Plotly imports (`webbrowser.Error`, `get`). Runs unchanged on Python 3.8 and 3.14.
"""
import errno
import io
import re
import sys

NOTE = "Sandbox: "
NETWORK = (
    NOTE + "this sandbox has no network, by design. Bring files in with the upload_file or write_file tools, "
    "and packages with the install_packages tool."
)
STDIN = NOTE + "there is no interactive input in this sandbox (nothing can be typed into stdin); pass the values in the code instead."
PROCESSES = NOTE + "this sandbox cannot start processes or commands (WebAssembly has none); do the work in Python instead."
THREADS = (
    NOTE + "this sandbox has no threads (WebAssembly here runs one); run the work in a plain loop or map(), or "
    "concurrently with asyncio, instead of threading or a ThreadPoolExecutor."
)
STATIC_IMAGE = (
    NOTE + "static chart images need kaleido (a browser engine), which this sandbox cannot run. fig.show() saves the "
    "chart as an interactive HTML file instead; to look at a chart yourself, draw it with matplotlib."
)
STAND_IN = NOTE + "%s is a stand-in in this sandbox (there is no browser, process or network), and has no such name; this is not a version gap."

# Files of the standard library and of HTTP client packages whose frames in a traceback mean network use.
_NETWORK_FILES = re.compile(
    r"^/lib/python[^/]*/(?:site-packages/)?(?:socket\.py|ssl\.py|http/client\.py|urllib/request\.py|ftplib\.py|smtplib\.py"
    r"|pyodide/http|pyodide/_?http\.py|pyodide_http/|requests/|urllib3/|httpx/|httpcore/|aiohttp/)"
)
# Plotly's static image export (kaleido, or orca on plotly 4): both need a browser engine or a process.
_IMAGE_EXPORT_FILES = re.compile(r"/plotly/io/_(?:kaleido|orca)\.py$")
_PROCESS_FILES = re.compile(r"^/lib/python[^/]*/(?:subprocess\.py|multiprocessing/|concurrent/futures/process\.py|pty\.py)")
_MISSING_MODULE_NAME = re.compile(r"^module '([\w.]+)' has no attribute '\w+'")
_MISSING_IMPORT_NAME = re.compile(r"^cannot import name '\w+' from '([\w.]+)'")
_UNREACHABLE = frozenset(getattr(errno, name, -1) for name in ("EHOSTUNREACH", "ENETUNREACH", "ECONNREFUSED"))


def hint_for(exc):
    """The one line for an error caused by what the sandbox lacks, or None."""
    for error in _chain(exc):
        hint = _hint_for_one(error)
        if hint is not None:
            return hint
    return None


def _chain(exc):
    """The exception and the ones it was raised from or during, innermost last; each once."""
    seen = []
    while exc is not None and all(exc is not other for other in seen) and len(seen) < 20:
        seen.append(exc)
        exc = exc.__cause__ if exc.__cause__ is not None else exc.__context__
    return seen


def _hint_for_one(error):
    message = str(error)
    files = _frame_files(error)
    if isinstance(error, EOFError) and message.startswith("EOF when reading"):
        return STDIN
    if type(error).__name__ in ("URLError", "gaierror") or any(_NETWORK_FILES.match(f) for f in files):
        return NETWORK
    if "XMLHttpRequest" in message and any(f.startswith("/lib/") and not f.startswith(_OWN_FILES) for f in files):
        # pyodide.open_url: Node has no XMLHttpRequest (NameError, or ImportError on 0.17). Only when a library
        # asked: user code reading `js.XMLHttpRequest` itself learns just that the name does not exist.
        return NETWORK
    if isinstance(error, OSError) and error.errno in _UNREACHABLE:
        return NETWORK
    if isinstance(error, AttributeError) and message.startswith("module 'http.client' has no attribute 'HTTPS"):
        return NETWORK  # Python 3.8 in Pyodide 0.17 has no ssl module, so no HTTPS classes
    if isinstance(error, RuntimeError) and message == "can't start new thread":
        return THREADS
    if isinstance(error, OSError) and any(_PROCESS_FILES.match(f) for f in files):
        return PROCESSES
    if isinstance(error, ValueError) and any(_IMAGE_EXPORT_FILES.search(f) for f in files):
        return STATIC_IMAGE
    if isinstance(error, (AttributeError, ImportError)):
        found = (_MISSING_MODULE_NAME if isinstance(error, AttributeError) else _MISSING_IMPORT_NAME).match(message)
        if found and _is_stand_in(found.group(1)):
            return STAND_IN % (found.group(1),)
    return None


# The harness's own modules (workers/thread/python-modules.ts): their frames run every cell, so they say nothing of
# which library raised.
_OWN_FILES = "/lib/pyodide_mcp/"


def _frame_files(error):
    files = []
    tb = error.__traceback__
    while tb is not None and len(files) < 200:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return files


def _is_stand_in(name):
    """A module the sandbox made or replaced: marked so by us, or the in-memory IPython the harness provides."""
    module = sys.modules.get(name)
    if module is None:
        return False
    if getattr(module, "__pyodide_mcp_stand_in__", False):
        return True
    return name.split(".")[0] == "IPython" and getattr(module, "__file__", None) is None


class _NoInput(io.TextIOBase):
    """stdin of a session: nothing to read, and reading says so (input() raises EOFError, as at the end of a
    file), where Pyodide 0.17 answered EOFError and Pyodide 314 `OSError: [Errno 29] I/O error`. A cell that wants
    input can still set sys.stdin to its own io.StringIO."""

    name = "<stdin>"

    def readable(self):
        return True

    def isatty(self):
        return False

    def read(self, size=-1):
        raise EOFError("EOF when reading stdin")

    def readline(self, size=-1):
        raise EOFError("EOF when reading a line")

    def readlines(self, hint=-1):
        raise EOFError("EOF when reading stdin")

    @property
    def encoding(self):
        return "utf-8"


def _complete_webbrowser(module):
    """Pyodide's webbrowser is a stand-in that opens a page through the browser's `window`: Pyodide 0.17's had only
    open(), so `except webbrowser.Error` (Plotly's import) raised AttributeError, and on both runtimes open() raised
    ImportError (no `window` in a worker thread). Here it answers as CPython's module does without a browser: get()
    raises webbrowser.Error, open() returns False."""
    error = getattr(module, "Error", None)
    if error is None:

        class Error(Exception):
            pass

        Error.__module__ = "webbrowser"
        error = Error

    def get(using=None):
        raise error("could not locate runnable browser (this sandbox has none)")

    def register(name, klass, instance=None, preferred=False):
        pass

    def open(url, new=0, autoraise=True):  # noqa: A001 - webbrowser's own name
        return False

    module.Error = error
    module.get = get
    module.register = register
    module.open = open
    module.open_new = lambda url: open(url, 1)
    module.open_new_tab = lambda url: open(url, 2)
    module.__pyodide_mcp_stand_in__ = True


def _system(command):
    """os.system: the command line runs as a `!` line does, by the sandbox's own commands over the workspace
    (workers/python/shell_commands.py: ls, cat, grep, pip...; a command that cannot exist here says so), with output
    in the cell's stdout and stderr. Returns the exit status in os.system's (wait) encoding. Pyodide's returned -1
    and ran nothing."""
    from pyodide_mcp_notebook import magics, shell_commands

    return shell_commands.run(str(command), magics.shell(), sys.stdout, sys.stderr) << 8


def install(after_import):
    """The stand-ins: stdin and os.system now, webbrowser when something imports it (`after_import`:
    import_hooks.AfterImport)."""
    import os

    sys.stdin = _NoInput()
    os.system = _system
    after_import.add("webbrowser", _complete_webbrowser)
