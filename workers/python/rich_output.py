"""Charts that a notebook draws in the browser (Plotly), saved as files in the workspace.

A notebook shows `fig.show()`, `pio.show(fig)` or a figure as a cell's last value in the browser; here there is no
browser, so each becomes a self-contained HTML file (plotly.js inlined from the installed plotly package, never a
CDN) that the reply lists, like a matplotlib figure. No image comes with it: Plotly's static export needs kaleido (or
orca), a browser engine that neither runtime can run, so the host's reply tells the model it cannot see the chart
(src/server/execution-reply.ts). The file is written like any other, so it counts against the session's file quota.

Plotly is adapted when it is first imported (import_hooks.py): its renderer registry gets one that saves the file,
as the default and in place of the renderers that mean "show it here" (browser, notebook, ...). Runs unchanged on
Python 3.8 (plotly 4.14 in the legacy set) and 3.14.
"""
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
        import plotly.io

        html = plotly.io.to_html(
            figure,
            config=config,
            auto_play=auto_play,
            include_plotlyjs=True,
            include_mathjax=False,
            post_script=post_script,
            full_html=True,
            animation_opts=animation_opts,
            validate=False,
        )
        self._save("html", html, HTML_MIME)

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
