"""%pip and !pip inside a cell: install, list, show, freeze.

Installing is the server's job (it holds the offline package set, and with --allow-network fetches and verifies
wheels): before a cell runs, the execute_code tool finds its `%pip install` / `!pip install` lines and installs
their packages through the install_packages path (src/python/pip-lines.ts). By the time the line runs here the
packages are in place, and it reports them in pip's words. Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import re

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# Options of `pip install` that change nothing here; any other option is refused with what to use.
_IGNORED = frozenset("-q --quiet -U --upgrade --user --no-cache-dir --pre --force-reinstall --no-warn-script-location -v --verbose --no-deps --upgrade-strategy --progress-bar --disable-pip-version-check".split())
_TAKES_VALUE = frozenset(("--upgrade-strategy", "--progress-bar"))
_reported = set()


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _distributions():
    """{canonical name: distribution} of what is installed in the session."""
    try:
        from importlib import metadata
    except ImportError:  # pragma: no cover - 3.8 has it
        return {}
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            found.setdefault(_canonical(name), dist)
    return found


def _not_loaded():
    """Canonical names of offline packages whose files are in place but that did not load: the modern runtime's loader
    unpacks a wheel (marking it INSTALLER pyodide.loadPackage) before it loads its libraries, and leaves a package
    whose library failed out of `loadedPackages`. The legacy runtime writes no such mark: nothing here."""
    try:
        import pyodide_js

        loaded = set(_canonical(name) for name in pyodide_js.loadedPackages.to_py())
    except Exception:
        return set()
    missing = set()
    for name, dist in _distributions().items():
        if name not in loaded and (dist.read_text("INSTALLER") or "").strip() == "pyodide.loadPackage":
            missing.add(name)
    return missing


def requested_names(words):
    """The package names of `pip install` arguments (version specifiers and extras dropped)."""
    names, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            option = word.split("=", 1)[0]
            if option not in _IGNORED:
                raise ValueError(
                    "pip install %s is not supported in this sandbox: give package names (pip install scipy pandas)" % (option,)
                )
            skip = option in _TAKES_VALUE and "=" not in word
            continue
        match = _NAME.match(word)
        if match is None:
            raise ValueError("pip install: %r is not a package name" % (word,))
        names.append(match.group(0))
    return names


def _install(words, out, err):
    names = requested_names(words)
    if not names:
        err.write("ERROR: You must give at least one requirement to install (e.g. pip install scipy)\n")
        return 1
    installed = _distributions()
    not_loaded = _not_loaded()
    fresh, status = [], 0
    for name in names:
        dist = installed.get(_canonical(name))
        if _canonical(name) in not_loaded:
            err.write(
                "ERROR: %s failed to load: the reply's failed_packages says why (so does import).\n" % (name,)
            )
            status = 1
        elif dist is None:
            err.write(
                "ERROR: %s is not installed: in this sandbox the server installs packages named on %%pip install lines "
                "of an execute_code cell before it runs (or use the install_packages tool).\n" % (name,)
            )
            status = 1
        elif _canonical(name) in _reported:
            out.write("Requirement already satisfied: %s in %s (%s)\n" % (name, dist.locate_file(""), dist.version))
        else:
            _reported.add(_canonical(name))
            fresh.append("%s-%s" % (dist.metadata["Name"], dist.version))
    if fresh:
        out.write("Successfully installed %s\n" % (" ".join(fresh),))
    return status


def _list(out):
    rows = sorted((dist.metadata["Name"], dist.version) for dist in _distributions().values())
    width = max([len("Package")] + [len(name) for name, _ in rows])
    version_width = max([len("Version")] + [len(version) for _, version in rows])
    out.write("Package".ljust(width) + " Version\n" + "-" * width + " " + "-" * version_width + "\n")
    for name, version in rows:
        out.write(name.ljust(width) + " " + version + "\n")
    return 0


def _show(words, out, err):
    installed = _distributions()
    missing, shown = [], 0
    for name in [word for word in words if not word.startswith("-")]:
        dist = installed.get(_canonical(name))
        if dist is None:
            missing.append(name)
            continue
        if shown:
            out.write("---\n")
        shown += 1
        requires = sorted(set(_NAME.match(r).group(0) for r in (dist.requires or []) if "extra ==" not in r and _NAME.match(r)))
        for label, value in (
            ("Name", dist.metadata["Name"]),
            ("Version", dist.version),
            ("Summary", dist.metadata.get("Summary") or ""),
            ("Location", str(dist.locate_file(""))),
            ("Requires", ", ".join(requires)),
        ):
            out.write("%s: %s\n" % (label, value))
    if missing:
        err.write("WARNING: Package(s) not found: %s\n" % (", ".join(missing),))
    return 0 if shown else 1


def pip_command(words, out, err):
    """`pip <words>`: its exit status; output on `out`, errors on `err` (streams with write())."""
    command, rest = (words[0], words[1:]) if words else ("", [])
    try:
        if command == "install":
            return _install(rest, out, err)
        if command == "list":
            return _list(out)
        if command == "freeze":
            for dist in sorted(_distributions().values(), key=lambda d: d.metadata["Name"].lower()):
                out.write("%s==%s\n" % (dist.metadata["Name"], dist.version))
            return 0
        if command == "show":
            return _show(rest, out, err)
        if command == "uninstall":
            err.write("ERROR: pip uninstall is not possible in this sandbox; a new session starts without the package.\n")
            return 1
    except ValueError as exc:
        err.write("ERROR: %s\n" % (exc,))
        return 1
    err.write("ERROR: pip %s is not supported here; use pip install, list, show or freeze.\n" % (command,))
    return 1


def pip(line, out, err):
    """%pip: as `!pip` (IPython's %pip runs pip on the same line)."""
    from .shell_commands import split_words

    pip_command(split_words(line), out, err)
    return None
