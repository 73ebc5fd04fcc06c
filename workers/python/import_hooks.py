"""Runs a function on a module right after its first import (a post-import hook), without importing it ahead.

Why: the sandbox adapts some modules (Plotly's renderers, the webbrowser stand-in) only in the sessions that use
them; importing them eagerly would cost every session's boot. The hook is one entry at the front of sys.meta_path:
for a hooked name it asks the other finders for the spec and wraps its loader; every other import costs one dict
lookup. Runs unchanged on Python 3.8 and 3.14.
"""
import sys


class _HookedLoader(object):
    """A module's own loader, with `hook(module)` run after the module's code."""

    def __init__(self, loader, hook):
        self._loader = loader
        self._hook = hook

    def create_module(self, spec):
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._hook(module)

    def __getattr__(self, name):
        # get_source, get_filename, is_package...: tracebacks and inspect still reach the real loader.
        return getattr(self._loader, name)


class AfterImport(object):
    """A sys.meta_path finder that only wraps the loaders of the module names it was given."""

    def __init__(self):
        self._hooks = {}

    def add(self, name, hook):
        """Runs `hook(module)` after `name` is imported; at once if it already is."""
        module = sys.modules.get(name)
        if module is not None:
            hook(module)
        else:
            self._hooks[name] = hook

    def find_spec(self, name, path=None, target=None):
        hook = self._hooks.get(name)
        if hook is None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is None:
                continue
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _HookedLoader(spec.loader, hook)
            return spec
        return None

    def invalidate_caches(self):
        pass


def install():
    """The finder, at the front of sys.meta_path (once)."""
    for finder in sys.meta_path:
        if isinstance(finder, AfterImport):
            return finder
    finder = AfterImport()
    sys.meta_path.insert(0, finder)
    return finder
