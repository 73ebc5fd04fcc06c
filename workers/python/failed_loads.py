"""Before each import, the worker forgets the shared libraries that failed to load.

Why: Emscripten's dynamic linker keeps a placeholder for a library whose load failed, so importing it again would
say "dynamic module does not define module export function" instead of why it failed; on the modern runtime, an
undefined symbol it left in the global offset table would also fail every later library. The worker undoes that
once no load is in progress (workers/thread/runtime/dynlib-rollback.ts; legacy-runtime.ts for 0.17.1's
placeholders); an import runs Python between loads, so this finder, at the front of sys.meta_path, asks for it
before every import that is not in sys.modules. It finds nothing itself.

Runs unchanged on Python 3.8 and 3.14. Without the worker's function (`pyodide_js._pyodide_mcp_forget_failed_loads`)
nothing is installed.
"""
import sys


class ForgetFailedLoads(object):
    """A sys.meta_path finder that finds nothing: it calls the worker's `forget` before the other finders run."""

    def __init__(self, forget):
        self._forget = forget

    def find_spec(self, name, path=None, target=None):
        self._forget()
        return None

    def invalidate_caches(self):
        pass


def install():
    """The finder, at the front of sys.meta_path (once), where the runtime offers the function; else nothing."""
    try:
        import pyodide_js

        forget = getattr(pyodide_js, "_pyodide_mcp_forget_failed_loads", None)
    except ImportError:
        forget = None
    if forget is None or any(isinstance(finder, ForgetFailedLoads) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, ForgetFailedLoads(forget))
