/**
 * Python run once when the legacy runtime boots (before any package import), closing version gaps of its bundle
 * that code written today hits. Measured on today's pandas/numpy/sympy/matplotlib docs run as notebooks: the legacy
 * bundle ran 97.3% of cells, and most misses were these two:
 *
 * - matplotlib 3.3 has no `layout=` keyword (added in 3.5): `plt.subplots(layout='constrained')` raised TypeError.
 *   `Figure.__init__` maps it to the 3.3 spelling (`constrained_layout=True` / `tight_layout=True`).
 * - pandas 1.0.5 `df.boxplot(by=...)` with several columns raised "The number of FixedLocator locations (6) ... does
 *   not match the number of ticklabels (3)" with matplotlib 3.3: the subplots share one x locator, which each
 *   boxplot extends, then pandas labels only its own boxes. pandas 1.1 repeats the labels to match the ticks; the
 *   same is done here, only while pandas draws a boxplot.
 *
 * Both patches are applied when their module is first imported (a finder on sys.meta_path wraps the loader), so
 * nothing is imported early. Also silenced: pandas' import-time "Could not import the lzma module" UserWarning (the
 * 0.17 build has no lzma; the warning was logged on every boot and shown to users importing pandas themselves).
 *
 * The code runs in its own namespace (not __main__, the user's) and is ours, never user input.
 */
export const LEGACY_PATCHES_PY = String.raw `
import sys, warnings

warnings.filterwarnings("ignore", message="Could not import the lzma module", category=UserWarning)


def _patch_figure(module):
    Figure = module.Figure
    original = Figure.__init__

    def __init__(self, *args, layout=None, **kwargs):
        if layout in ("constrained", "compressed"):
            kwargs.setdefault("constrained_layout", True)
        elif layout == "tight":
            kwargs.setdefault("tight_layout", True)
        elif layout not in (None, "none"):
            raise ValueError("Invalid value for 'layout': %r (matplotlib 3.3 here knows 'constrained' and 'tight')" % (layout,))
        original(self, *args, **kwargs)

    __init__.__doc__ = original.__doc__
    __init__.__wrapped__ = original
    Figure.__init__ = __init__


def _patch_pandas_boxplot(module):
    import functools
    from matplotlib.axes import Axes

    drawing = [0]

    def repeat_labels(original):
        @functools.wraps(original)
        def set_ticklabels(self, labels, *args, **kwargs):
            if drawing[0]:
                ticks = (self.get_xticks if original.__name__ == "set_xticklabels" else self.get_yticks)()
                labels = list(labels)
                if labels and len(ticks) > len(labels) and len(ticks) % len(labels) == 0:
                    labels = labels * (len(ticks) // len(labels))
            return original(self, labels, *args, **kwargs)

        return set_ticklabels

    Axes.set_xticklabels = repeat_labels(Axes.set_xticklabels)
    Axes.set_yticklabels = repeat_labels(Axes.set_yticklabels)

    def while_drawing(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            drawing[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                drawing[0] -= 1

        return wrapper

    module.boxplot = while_drawing(module.boxplot)
    package = sys.modules.get("pandas.plotting._matplotlib")
    if package is not None and getattr(package, "boxplot", None) is not None:
        package.boxplot = module.boxplot


_PATCHES = {"matplotlib.figure": _patch_figure, "pandas.plotting._matplotlib.boxplot": _patch_pandas_boxplot}


class _PatchOnImport:
    """Finds nothing itself: asks the finders after it and wraps the loader of a module that has a patch."""

    def find_spec(self, name, path=None, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        exec_module = loader.exec_module

        def patched_exec_module(module):
            exec_module(module)
            try:
                patch(module)
            except Exception as error:  # a failed patch must not break the import itself
                warnings.warn("pyodide-mcp: could not patch %s: %r" % (name, error))

        loader.exec_module = patched_exec_module
        return spec


sys.meta_path.insert(0, _PatchOnImport())
`;
