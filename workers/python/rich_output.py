"""Charts that a notebook draws in the browser (Plotly), saved as files in the workspace.

A notebook shows `fig.show()`, `pio.show(fig)` or a figure as a cell's last value in the browser; here there is no
browser, so each becomes a self-contained HTML file (plotly.js inlined from the installed plotly package, never a
CDN) that the reply lists, like a matplotlib figure. The file holds the figure as JSON in a data block and draws it with
plotly_chart.js, the same script in every chart: so the MCP App can run the chart under a policy that allows those two
scripts by hash and nothing else (src/view/plotly-scripts.ts), where plotly.io.to_html writes a script per figure. No image comes with it: Plotly's static export needs kaleido (or
orca), a browser engine that neither runtime can run, so the host's reply tells the model it cannot see the chart
(src/server/execution-reply.ts). The file is written like any other, so it counts against the session's file quota.

Plotly is adapted when it is first imported (import_hooks.py): its renderer registry gets one that saves the file,
as the default and in place of the renderers that mean "show it here" (browser, notebook, ...). Runs unchanged on
Python 3.8 (plotly 4.14 in the legacy set) and 3.14.
"""
import json
import os
import sys

RENDERER = "pyodide_mcp"
HTML_MIME = "text/html"
# Renderers a notebook user names to see the chart in the page or a browser: here they all save the file. The
# static ones (png, svg, pdf, jpeg) are left as they are: they need kaleido, and say so.
_SHOWN_HERE = (
    "browser", "firefox", "chrome", "chromium", "iframe", "iframe_connected", "notebook", "notebook_connected",
    "jupyterlab", "nteract", "vscode", "colab", "kaggle", "azure", "cocalc", "databricks", "plotly_mimetype",
    "sphinx_gallery", "sphinx_gallery_png",
)


class RichOutput(object):
    """Saves charts through `save(extension, text, mime_type)` (the harness's session: a workspace file, listed in
    the cell's display)."""

    def __init__(self, save):
        self._save = save

    def install(self, after_import):
        after_import.add("plotly.io._renderers", self._adapt_plotly)

    def show_value(self, value):
        """A chart as a cell's last value is saved as a notebook would show it; True if `value` was one."""
        basedatatypes = sys.modules.get("plotly.basedatatypes")
        if basedatatypes is None or not isinstance(value, basedatatypes.BaseFigure):
            return False
        self.save_plotly(value.to_dict())
        return True

    def save_plotly(self, figure, config=None, auto_play=True, post_script=None, animation_opts=None):
        self._save("html", chart_html(figure, config, auto_play, post_script, animation_opts), HTML_MIME)

    def _adapt_plotly(self, module):
        from plotly.io._base_renderers import ExternalRenderer

        rich = self

        class WorkspaceRenderer(ExternalRenderer):
            """Saves the figure as an HTML file in the session's workspace (pyodide-mcp)."""

            def __init__(self, config=None, auto_play=True, post_script=None, animation_opts=None):
                self.config = config
                self.auto_play = auto_play
                self.post_script = post_script
                self.animation_opts = animation_opts

            def render(self, fig_dict):
                rich.save_plotly(fig_dict, self.config, self.auto_play, self.post_script, self.animation_opts)

        renderers = module.renderers
        renderer = WorkspaceRenderer()
        renderers[RENDERER] = renderer
        for name in _SHOWN_HERE:
            renderers[name] = renderer
        renderers.default = RENDERER


# The chart's elements, named by plotly_chart.js.
_CHART_ID = "pyodide-mcp-chart"
_FIGURE_ID = "pyodide-mcp-figure"
_loader = []


def _chart_loader():
    """plotly_chart.js, read once from beside this module (python-modules.ts writes it there at boot)."""
    if not _loader:
        with open(os.path.join(os.path.dirname(__file__), "plotly_chart.js")) as handle:
            _loader.append(handle.read())
    return _loader[0]


def _css_size(value, default):
    return "%dpx" % value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def chart_html(figure, config=None, auto_play=True, post_script=None, animation_opts=None):
    """The chart as plotly.io.to_html(full_html=True, include_plotlyjs=True) draws it (the same div size, config and
    animation), with the figure as data instead of script text. A post_script runs after the chart in a browser; the
    MCP App, which runs only the two known scripts, draws the chart without it."""
    import plotly.offline
    from plotly.utils import PlotlyJSONEncoder

    try:  # plotly's own config cleaning (responsive, the server URL), as to_html does
        from plotly.io._html import _get_jconfig

        config = _get_jconfig(config)
    except ImportError:
        config = dict(config or {})
    config.setdefault("responsive", True)
    layout = figure.get("layout") or {}
    template = (layout.get("template") or {}).get("layout") or {}
    width = _css_size(layout.get("width", template.get("width")), "100%")
    height = _css_size(layout.get("height", template.get("height")), "100%")
    spec = {
        "data": figure.get("data") or [],
        "layout": layout,
        "frames": figure.get("frames") or [],
        "config": config,
        "auto_play": bool(auto_play),
        "animation_opts": animation_opts or {},
    }
    # "<" only occurs inside JSON strings, where \u003c means the same: the data block can never close early.
    data = json.dumps(spec, cls=PlotlyJSONEncoder, sort_keys=True).replace("<", "\\u003c")
    parts = [
        '<html>\n<head><meta charset="utf-8" /></head>\n<body>\n',
        '<div id="%s" class="plotly-graph-div" style="height:%s; width:%s;"></div>\n' % (_CHART_ID, height, width),
        '<script type="application/json" id="%s">%s</script>\n' % (_FIGURE_ID, data),
        "<script>%s</script>\n" % plotly.offline.get_plotlyjs(),
        "<script>%s</script>\n" % _chart_loader(),
    ]
    if post_script:
        scripts = post_script if isinstance(post_script, (list, tuple)) else [post_script]
        for script in scripts:
            parts.append("<script>%s</script>\n" % script.replace("{plot_id}", _CHART_ID).replace("</", "<\\/"))
    parts.append("</body>\n</html>\n")
    return "".join(parts)
