"""%autoreload: workspace modules whose source changed are reloaded before each cell, as IPython's autoreload
extension does, so that a helper module an agent edits (write_file, %%writefile) takes effect without a restart.

Only modules imported from the workspace: those under /lib never change in a session. A module counts as changed
when its file's bytes do (a checksum, since the file system's times have a one-second grain and an edit may keep
the size). What a reload cannot change, it does not: objects made from the old code keep it, as after
importlib.reload (IPython's mode 3 patches classes and functions in place; that is not done here).
"""
import importlib
import sys
import traceback
import zlib

from .shell_commands import WORKSPACE

_PREFIX = WORKSPACE + "/"


class AutoReload(object):
    def __init__(self):
        self.enabled = False
        # module name -> checksum of its file when last seen
        self.seen = {}
        self.hooked = False

    def magic(self, line):
        """`%autoreload [0|1|2|3|off|explicit|all|complete|now]`: IPython's arguments. Without one, reloads now."""
        mode = line.strip()
        if mode in ("", "now"):
            self.reload_changed(everything=True)
        elif mode in ("0", "off"):
            self.enabled = False
        elif mode in ("1", "2", "3", "explicit", "all", "complete"):
            # Mode 1 reloads only %aimport'ed modules in IPython: here every workspace module, since nothing else
            # could change.
            self.enabled = True
            self.remember()
            self._hook()
        else:
            from .magics import UsageError

            raise UsageError("%%autoreload %s: expected 0, 1, 2, 3 (or off, explicit, all, complete, now)" % (mode,))
        return None

    def _hook(self):
        if self.hooked:
            return
        harness = sys.modules.get("pyodide_mcp_harness")
        session = getattr(harness, "_session", None)
        if session is not None:
            session.before_cell.append(self.before_cell)
            self.hooked = True

    def before_cell(self):
        if self.enabled:
            self.reload_changed()

    def remember(self):
        for name, path in _workspace_modules():
            if name not in self.seen:
                self.seen[name] = _checksum(path)

    def reload_changed(self, everything=False):
        for name, path in _workspace_modules():
            checksum = _checksum(path)
            if checksum is None:
                continue
            before = self.seen.get(name)
            self.seen[name] = checksum
            if before is None and not everything:
                continue  # first seen: imported since the last check, so it is current
            if before == checksum and not everything:
                continue
            try:
                importlib.reload(sys.modules[name])
            except Exception as exc:  # noqa: BLE001 - reported as IPython does, the cell still runs
                text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                sys.stderr.write("[autoreload of %s failed: %s]\n" % (name, text))


def _workspace_modules():
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(_PREFIX) and path.endswith(".py"):
            yield name, path


def _checksum(path):
    try:
        with open(path, "rb") as handle:
            return zlib.crc32(handle.read())
    except OSError:
        return None


_autoreload = []


def autoreload():
    """The session's one AutoReload."""
    if not _autoreload:
        _autoreload.append(AutoReload())
    return _autoreload[0]
