"""What a cell shows besides its streams: matplotlib figures and the IPython display protocol (`display()`,
`_repr_png_`, `_repr_html_`...), saved under the workspace's figures/ folder or kept as text outputs."""
import base64
import builtins
import json
import os
import sys
import types

from .environment import CELL_FILE_PREFIX, WORKSPACE

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
        self._displayed = set()

    def start_cell(self):
        self.items = []
        self._outputs_this_cell = 0
        # ids of the figures this cell displayed: the capture at its end skips them.
        self._displayed = set()

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
            if id(figure) not in self._displayed:
                self.save_figure(figure)
            plt.close(figure)

    def save_figure(self, figure):
        """A matplotlib figure as this cell's next output, in each figure format."""
        self._outputs_this_cell += 1
        for fmt in self.figure_formats:
            os.makedirs(os.path.join(WORKSPACE, FIGURE_DIR), exist_ok=True)
            name = "cell%d_%d.%s" % (self._cell_number(), self._outputs_this_cell, fmt)
            path = os.path.join(WORKSPACE, FIGURE_DIR, name)
            figure.savefig(path, format=fmt, bbox_inches="tight")
            mime = "image/svg+xml" if fmt == "svg" else "image/" + fmt
            self.items.append({"mime_type": mime, "path": os.path.relpath(path, WORKSPACE)})

    def show_rich(self, value, html=True):
        """Honours the IPython display protocol: _repr_png_/_repr_svg_ become image files, and
        _repr_html_/_repr_markdown_/_repr_latex_ become text outputs. Returns True if anything was shown."""
        if isinstance(value, type) or type(value) in _PLAIN_TYPES:
            return False
        if _is_figure(value):
            # display(fig), or a figure as the cell's value, shows it now, as IPython's inline backend does, even after
            # plt.close(fig). Unlike Jupyter, the end of the cell does not show it a second time.
            self.save_figure(value)
            self._displayed.add(id(value))
            return True
        shown = False
        for method, extension, mime in (
            ("_repr_png_", "png", "image/png"),
            ("_repr_jpeg_", "jpg", "image/jpeg"),
            ("_repr_svg_", "svg", "image/svg+xml"),
        ):
            data = _call_repr(value, method)
            if not data:
                continue
            if extension != "svg" and isinstance(data, str):
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


def _is_figure(value):
    figure_type = getattr(sys.modules.get("matplotlib.figure"), "Figure", None)
    return figure_type is not None and isinstance(value, figure_type)


def _call_repr(value, method):
    function = getattr(value, method, None)
    if not callable(function):
        return None
    try:
        return function()
    except Exception:
        return None


def get_ipython():
    """IPython's `get_ipython()` as this sandbox answers it: the session's shell (the one `%` lines and `!` commands
    run in, workers/python/magics.py) when called from a cell or a workspace file, as in a notebook; None when a
    library calls it to ask whether it runs in IPython (matplotlib, pandas, plotly and tqdm do), since the shell has
    only what the notebook syntax needs and a library that took it for IPython's would call what it lacks. Both
    `get_ipython` in a cell (a builtin, as in IPython) and `from IPython import get_ipython` are this function."""
    caller = sys._getframe(1).f_code.co_filename
    if not (caller.startswith(CELL_FILE_PREFIX) or caller.startswith(WORKSPACE + "/")):
        return None
    from pyodide_mcp_notebook import magics

    return magics.shell()


def install_display_helpers(display, clear_output):
    """`display` and `get_ipython` as builtins, and a minimal IPython.display when IPython itself is not installed,
    because model-written notebook code often does `from IPython.display import display, HTML, clear_output`.
    `clear_output` is the session's (cell.py): it drops what the cell showed so far."""
    builtins.display = display
    builtins.get_ipython = get_ipython
    try:
        import IPython  # noqa: F401
        return
    except ImportError:
        pass

    class _Text(object):
        def __init__(self, data=None, url=None, filename=None, metadata=None):
            if url is not None:
                raise ValueError("%s(url=...) needs the network, which this sandbox has none of; pass data or a filename" % type(self).__name__)
            if filename is not None:
                with open(filename, self._read_mode) as handle:
                    data = handle.read()
            self.data = data

        _read_mode = "r"

        def __repr__(self):
            return "<IPython.display.%s object>" % type(self).__name__

    class HTML(_Text):
        def _repr_html_(self):
            return self.data

    class Markdown(_Text):
        def _repr_markdown_(self):
            return self.data

    class Latex(_Text):
        def _repr_latex_(self):
            return self.data

    class Math(_Text):
        def _repr_latex_(self):
            text = self.data.strip().strip("$")
            return "$\\displaystyle %s$" % (text,)

    class SVG(_Text):
        def _repr_svg_(self):
            return self.data

    class Code(_Text):
        def __init__(self, data=None, url=None, filename=None, language=None):
            super(Code, self).__init__(data, url, filename)
            self.language = language or ""

        def _repr_markdown_(self):
            return "```%s\n%s\n```" % (self.language, self.data)

    class JSON(object):
        def __init__(self, data=None, url=None, filename=None, expanded=False, metadata=None, root="root", **kwargs):
            if url is not None:
                raise ValueError("JSON(url=...) needs the network, which this sandbox has none of; pass data or a filename")
            if filename is not None:
                with open(filename) as handle:
                    data = json.load(handle)
            self.data = data

        def _repr_markdown_(self):
            return "```json\n%s\n```" % (json.dumps(self.data, indent=2, default=repr),)

    class Pretty(_Text):
        def __repr__(self):
            return str(self.data)

    class Image(_Text):
        _read_mode = "rb"

        def __init__(self, data=None, url=None, filename=None, format=None, embed=None, width=None, height=None, **kwargs):  # noqa: A002
            if isinstance(data, str) and url is None and filename is None and os.path.exists(data):
                data, filename = None, data
            super(Image, self).__init__(data, url, filename)
            if not isinstance(self.data, bytes):
                raise ValueError("Image() needs the image's bytes as data, or a filename")
            named = (format or os.path.splitext(filename or "")[1].lstrip(".")).lower()
            self.format = "jpeg" if named in ("jpg", "jpeg") or self.data[:3] == b"\xff\xd8\xff" else "png"

        def _repr_png_(self):
            return self.data if self.format == "png" else None

        def _repr_jpeg_(self):
            return self.data if self.format == "jpeg" else None

    ipython = types.ModuleType("IPython")
    ipython.get_ipython = get_ipython
    display_module = types.ModuleType("IPython.display")
    names = (
        ("display", display),
        ("clear_output", clear_output),
        ("HTML", HTML),
        ("Markdown", Markdown),
        ("Latex", Latex),
        ("Math", Math),
        ("SVG", SVG),
        ("Code", Code),
        ("JSON", JSON),
        ("Pretty", Pretty),
        ("Image", Image),
    )
    for name, item in names:
        setattr(display_module, name, item)
    ipython.display = display_module
    sys.modules.setdefault("IPython", ipython)
    sys.modules.setdefault("IPython.display", display_module)
