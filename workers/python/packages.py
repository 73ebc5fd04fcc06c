"""Packages: the imports a cell makes (so the worker loads their distributions first), the preload set's imports,
and a pure-Python wheel the server fetched."""
import ast
import io
import os


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


def import_preloaded(names):
    """Imports the preload set into sys.modules (so a user's `import numpy` costs nothing) and returns
    {"versions": {name: version}, "failed": {name: "Type: message"}}: a module whose import raises is reported, and
    the others are imported all the same. Touches nothing in the user's namespace."""
    import importlib

    versions = {}
    failed = {}
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception as error:
            failed[name] = "%s: %s" % (type(error).__name__, error)
            continue
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
    return {"versions": versions, "failed": failed}


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
