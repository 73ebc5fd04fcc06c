"""The shell behind `get_ipython()`: line and cell magics with IPython's meaning and output format.

The transformed cell (notebook_syntax.py) calls `run_line_magic`, `run_cell_magic`, `system` and `getoutput`.
A magic's code (%time, %%timeit, %run) is compiled under the cell's own file name and line numbers, so its
tracebacks quote the user's lines. Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import os
import sys

from . import shell_commands

WORKSPACE = shell_commands.WORKSPACE


# The modules of single magics load with their first use (timeit's and tarfile's imports cost a first cell
# hundreds of milliseconds; see docs/benchmarks.md).
def _lazy(module, name):
    def call(*args, **kwargs):
        loaded = __import__("pyodide_mcp_notebook." + module, fromlist=[name])
        return getattr(loaded, name)(*args, **kwargs)

    return call


run_timed, run_timeit, pip = _lazy("timing", "run_timed"), _lazy("timing", "run_timeit"), _lazy("pip_magic", "pip")


def _info(name, *args):
    return _lazy("magic_info", name)(*args)


class UsageError(Exception):
    """A magic used wrongly (IPython's name): the message says how to use it."""


def _caller(depth=2):
    """(file name, line number) of the user's line that called the magic."""
    frame = sys._getframe(depth)
    return frame.f_code.co_filename, frame.f_lineno


def _hidden_names():
    """What a fresh namespace holds (kept out of %who and %reset), from the harness's session."""
    harness = sys.modules.get("pyodide_mcp_harness")
    session = getattr(harness, "_session", None)
    return set(getattr(session, "pristine", ()))


class SandboxShell(object):
    """What `get_ipython()` returns in a cell: enough of IPython's InteractiveShell for its transformed syntax."""

    def __init__(self):
        self._previous_dir = WORKSPACE

    @property
    def user_ns(self):
        return sys.modules["__main__"].__dict__

    # -- entry points the transformed code calls --------------------------------------------------------------
    def run_line_magic(self, name, line, _stack_depth=2):
        handler = self._line_magics().get(name)
        if handler is None:
            raise UsageError(self._unknown("%", name))
        filename, lineno = _caller(_stack_depth)
        return handler(self._expand(line, name), (filename, lineno))

    def run_cell_magic(self, name, line, cell):
        handler = self._cell_magics().get(name)
        if handler is None:
            raise UsageError(self._unknown("%%", name))
        filename, lineno = _caller()
        return handler(line, cell, (filename, lineno + 1))

    def system(self, cmd):
        """`!cmd`: the sandbox's own commands; the exit status goes to `_exit_code`, as in IPython."""
        status = shell_commands.run(self._expand(cmd, "!"), self, sys.stdout, sys.stderr)
        self.user_ns["_exit_code"] = status
        return None

    def getoutput(self, cmd):
        """`x = !cmd`: the output's lines (stdout and stderr, as IPython's getoutput)."""
        lines = shell_commands.capture(self._expand(cmd, "!"), self)
        return shell_commands.SList(lines)

    def show_usage(self):
        print("IPython syntax in this sandbox: %magic, %%cellmagic, !command, obj? and obj??. %lsmagic lists the magics.")

    # -- helpers ---------------------------------------------------------------------------------------------
    def _expand(self, text, name):
        # IPython expands $name and {expression} in ! commands and line magics (not in the %time family's code).
        if name in ("time", "timeit", "pinfo", "pinfo2"):
            return text
        return shell_commands.expand_variables(text, self.user_ns)

    def _unknown(self, prefix, name):
        if prefix == "%" and name.startswith("%"):
            return "Cell magic `%%%s` must be on the first line of the cell." % (name.lstrip("%"),)
        known = sorted(self._line_magics() if prefix == "%" else self._cell_magics())
        kind = "Line" if prefix == "%" else "Cell"
        return "%s magic function `%s%s` not found. This sandbox supports: %s." % (
            kind,
            prefix,
            name,
            ", ".join(prefix + magic for magic in known),
        )

    def _line_magics(self):
        aliases = dict((name, self._alias(name)) for name in ("ls", "cat", "cp", "mv", "rm", "mkdir", "rmdir"))
        aliases.update(
            {
                "matplotlib": self.matplotlib,
                "time": lambda line, where: run_timed(line, None, self.user_ns, where),
                "timeit": lambda line, where: run_timeit(line, None, self.user_ns, where),
                "who": lambda line, where: _info("who", self.user_ns, _hidden_names(), line),
                "whos": lambda line, where: _info("whos", self.user_ns, _hidden_names(), line),
                "reset": self.reset,
                "run": self.run,
                "cd": self.cd,
                "pwd": lambda line, where: os.getcwd(),
                "env": self.env,
                "pip": lambda line, where: pip(line, sys.stdout, sys.stderr),
                "load_ext": self.load_ext,
                "autoreload": lambda line, where: _lazy("autoreload", "autoreload")().magic(line),
                "config": self.config,
                "pinfo": lambda line, where: _info("describe_object", line, self.user_ns, False),
                "pinfo2": lambda line, where: _info("describe_object", line, self.user_ns, True),
                "lsmagic": self.lsmagic,
                "system": lambda line, where: self.system(line),
                "sx": lambda line, where: self.getoutput(line),
            }
        )
        return aliases

    def _cell_magics(self):
        return {
            "time": lambda line, cell, where: run_timed(cell, None, self.user_ns, where),
            "timeit": lambda line, cell, where: run_timeit(line, cell, self.user_ns, where),
            "writefile": self.writefile,
            "capture": self.capture,
            "bash": self.script,
            "sh": self.script,
            "script": self.script,
            "html": lambda line, cell, where: _show("HTML", cell),
            "markdown": lambda line, cell, where: _show("Markdown", cell),
            "latex": lambda line, cell, where: _show("Latex", cell),
            "svg": lambda line, cell, where: _show("SVG", cell),
        }

    def _alias(self, command):
        return lambda line, where: self.system(command + " " + line)

    # -- magics ----------------------------------------------------------------------------------------------
    def matplotlib(self, line, where):
        backend = line.split()[0] if line.split() else "inline"
        if backend not in ("inline", "agg", "notebook", "widget", "ipympl"):
            print("pyodide-mcp: no GUI backend here; figures are captured as images anyway (as %matplotlib inline).", file=sys.stderr)
        return None

    def reset(self, line, where):
        if "-f" not in line.split():
            raise UsageError("%reset asks for confirmation, and this sandbox has no interactive input: use %reset -f")
        hidden = _hidden_names()
        namespace = self.user_ns
        for name in [name for name in namespace if not name.startswith("_") and name not in hidden]:
            del namespace[name]
        return None

    def run(self, line, where):
        words = shell_commands.split_words(line)
        options = [word for word in words if word.startswith("-")]
        words = [word for word in words if not word.startswith("-")]
        if not words:
            raise UsageError("%run needs a file name: %run script.py [args]")
        unknown = [option for option in options if option not in ("-i",)]
        if unknown:
            raise UsageError("%%run here runs a .py file in the session namespace (as the run_file tool); options %s are not supported" % (" ".join(unknown),))
        path = shell_commands.confined(words[0])
        with open(path) as handle:
            source = handle.read()
        code = compile(source, path, "exec")
        saved_argv = sys.argv
        sys.argv = words
        # As IPython's %run: the file runs as __main__, so its `if __name__ == "__main__":` block runs.
        saved_name = self.user_ns.get("__name__")
        self.user_ns["__name__"] = "__main__"
        try:
            exec(code, self.user_ns)
        except SystemExit as exc:
            if not (exc.code is None or exc.code == 0):  # as IPython's %run: a script's sys.exit(0) is no error
                raise
        finally:
            sys.argv = saved_argv
            self.user_ns["__name__"] = saved_name
        return None

    def cd(self, line, where):
        target = line.strip() or WORKSPACE
        if target == "-":
            target = self._previous_dir
        if target.startswith("-b"):
            raise UsageError("%cd -b (bookmarks) is not supported here")
        path = shell_commands.confined(target)
        if not os.path.isdir(path):
            raise UsageError("cd: %s: No such directory" % (target,))
        self._previous_dir = os.getcwd()
        os.chdir(path)
        print(path)
        return None

    def env(self, line, where):
        line = line.strip()
        if not line:
            return dict(os.environ)
        if "=" in line or len(line.split(None, 1)) == 2:
            name, value = line.split("=", 1) if "=" in line else line.split(None, 1)
            os.environ[name.strip()] = value.strip()
            print("env: %s=%s" % (name.strip(), value.strip()))
            return None
        if line not in os.environ:
            raise UsageError("Environment does not have key: %s" % (line,))
        return os.environ[line]

    def load_ext(self, line, where):
        if line.strip() == "autoreload":
            return None  # built in (%autoreload); loading it changes nothing, as a second %load_ext in IPython
        raise UsageError(
            "%%load_ext %s: IPython extensions cannot be loaded in this sandbox (there is no IPython kernel); import the "
            "library and call it directly instead." % (line.strip() or "(nothing)",)
        )

    def config(self, line, where):
        # Notebook set-up lines (`%config InlineBackend.figure_format = 'retina'`, `%config Completer.use_jedi = False`)
        # configure a kernel's display and completion, which this sandbox does not have: figures come back as PNG
        # whatever the format asked. Accepted without effect, so the cell's other lines run.
        if not line.strip():
            raise UsageError("%config needs a setting here: %config Class.trait = value (it has no effect in this sandbox)")
        return None

    def lsmagic(self, line, where):
        print("Available line magics:\n" + "  ".join("%" + name for name in sorted(self._line_magics())))
        print("\nAvailable cell magics:\n" + "  ".join("%%" + name for name in sorted(self._cell_magics())))
        return None

    def writefile(self, line, cell, where):
        words = shell_commands.split_words(self._expand(line, "writefile"))
        append = "-a" in words or "--append" in words
        names = [word for word in words if not word.startswith("-")]
        if len(names) != 1:
            raise UsageError("%%writefile needs one file name: %%writefile [-a] path")
        path = shell_commands.confined(names[0])
        existed = os.path.exists(path)
        print(("Appending to %s" if append else ("Overwriting %s" if existed else "Writing %s")) % (names[0],))
        with open(path, "a" if append else "w") as handle:
            handle.write(cell)
        return None

    def capture(self, line, cell, where):
        # %%capture: the body's output is dropped (or kept in a variable), as IPython does.
        import io

        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        try:
            run_timed(cell, None, self.user_ns, where, quiet=True)
        finally:
            out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
            sys.stdout, sys.stderr = saved
        names = [word for word in line.split() if not word.startswith("-")]
        if names:
            self.user_ns[names[0]] = _Captured(out, err)
        return None

    def script(self, line, cell, where):
        # %%bash / %%sh: each line goes to the sandbox's commands, as `!` lines would.
        status = 0
        for command in cell.splitlines():
            if command.strip() and not command.strip().startswith("#"):
                status = shell_commands.run(self._expand(command, "!"), self, sys.stdout, sys.stderr)
        self.user_ns["_exit_code"] = status
        return None


def _show(kind, text):
    # %%html, %%markdown, %%latex, %%svg: the body shown as that kind of output, as display(HTML(body)) would.
    from IPython import display

    display.display(getattr(display, kind)(text))
    return None


class _Captured(object):
    def __init__(self, stdout, stderr):
        self.stdout, self.stderr = stdout, stderr

    def show(self):
        sys.stdout.write(self.stdout)
        sys.stderr.write(self.stderr)

    def __str__(self):
        return self.stdout


_shell = []


def shell():
    """The session's one shell (its %cd history lives here)."""
    if not _shell:
        _shell.append(SandboxShell())
    return _shell[0]


def get_ipython():
    return shell()


def install():
    """Makes `get_ipython()` answer in cells (as a builtin, as in IPython) where the harness's is gone (a cell deleted
    it); called before a transformed cell runs. The harness's (display.py) answers libraries' probes with None."""
    import builtins

    if not callable(getattr(builtins, "get_ipython", None)):
        builtins.get_ipython = get_ipython
