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
export declare const LEGACY_PATCHES_PY: string;
