"""What a cell shows besides its streams: matplotlib figures and the IPython display protocol (`display()`,
`_repr_png_`, `_repr_html_`...), saved under the workspace's figures/ folder or kept as text outputs."""
import base64
import builtins
import os
import sys
import types

from .environment import WORKSPACE

FIGURE_DIR = "figures"
# Built-in types have no _repr_*_ methods, and none can be added to them: their values skip the display protocol.
_PLAIN_TYPES = frozenset((int, float, complex, bool, str, bytes, list, tuple, dict, set, frozenset, type(None)))


class Display(object):
    """One session's outputs: `items` is the current cell's list of {"mime_type", "path" or "text"}."""

    def __init__(self, cell_number):
        # The session's execution count, read when a file is named (cell<count>_<n>.<format>).
        self._cell_number = cell_number
        self.figure_formats = ["png"]
        self.items = []
        self._outputs_this_cell = 0

    def start_cell(self):
        self.items = []
        self._outputs_this_cell = 0

    def _output_path(self, extension):
        self._outputs_this_cell += 1
        directory = os.path.join(WORKSPACE, FIGURE_DIR)
        os.makedirs(directory, exist_ok=True)
        name = "cell%d_%d.%s" % (self._cell_number(), self._outputs_this_cell, extension)
        return os.path.join(directory, name)

    def save_output(self, extension, data, mime_type):
        """A rich output of this cell as a workspace file, listed in its display."""
        path = self._output_path(extension)
        with open(path, "wb") as handle:
            handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))
        self.items.append({"mime_type": mime_type, "path": os.path.relpath(path, WORKSPACE)})

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
                name = "cell%d_%d.%s" % (self._cell_number(), self._outputs_this_cell, fmt)
                path = os.path.join(WORKSPACE, FIGURE_DIR, name)
                figure.savefig(path, format=fmt, bbox_inches="tight")
                mime = "image/svg+xml" if fmt == "svg" else "image/" + fmt
                self.items.append({"mime_type": mime, "path": os.path.relpath(path, WORKSPACE)})
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
            self.items.append({"mime_type": mime, "path": os.path.relpath(path, WORKSPACE)})
            shown = True
        for method, mime in (("_repr_markdown_", "text/markdown"), ("_repr_latex_", "text/latex"), ("_repr_html_", "text/html")):
            if mime == "text/html" and not html:
                continue
            data = _call_repr(value, method)
            if isinstance(data, str) and data:
                self.items.append({"mime_type": mime, "text": data})
                shown = True
                break
        return shown

    def display_objects(self, *objects):
        """`display(...)` inside user code: rich outputs when the object has them, else its repr on stdout."""
        for obj in objects:
            if not self.show_rich(obj):
                print(repr(obj))


def _call_repr(value, method):
    function = getattr(value, method, None)
    if not callable(function):
        return None
    try:
        return function()
    except Exception:
        return None


def install_display_helpers(display):
    """`display` as a builtin, and a minimal IPython.display when IPython itself is not installed,
    because model-written notebook code often does `from IPython.display import display, HTML`."""
    builtins.display = display
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
    for name, item in (("display", display), ("HTML", HTML), ("Markdown", Markdown), ("Latex", Latex)):
        setattr(display_module, name, item)
    ipython.display = display_module
    sys.modules.setdefault("IPython", ipython)
    sys.modules.setdefault("IPython.display", display_module)
