"""Our matplotlib backend (`module://pyodide_mcp_backend`, set by environment.py): Agg, plus a show() that saves the
open figures into the workspace as the cell's outputs. Written beside the harness package at boot
(workers/thread/python-modules.ts)."""
from matplotlib.backends.backend_agg import FigureCanvasAgg as FigureCanvas  # noqa: F401
from matplotlib.backend_bases import FigureManagerBase as FigureManager  # noqa: F401


def show(*args, **kwargs):
    import pyodide_mcp_harness

    pyodide_mcp_harness.capture_figures()
