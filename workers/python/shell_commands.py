"""`!cmd` lines: a small shell run by the sandbox itself (WebAssembly has no processes).

Parses a command line (quotes, globs, `&&`, `||`, `;`, `|`, `>`, `>>`, `2>&1`, `2>/dev/null`) and runs each command
as a Python function over the session's own file system (shell_builtins.py). File operations go through Python's
os, shutil and open, so the session's file quota applies to them exactly as to Python's own writes. Every path must
resolve inside the workspace. As in IPython, a `!` line runs in a subshell: `!cd dir && ls` lists dir, and the
session's directory changes only with %cd. Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import errno
import io
import os
import re

WORKSPACE = "/workspace"
_QUOTA_ERRNOS = (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", -1))
_OPERATORS = ("&&", "||", ">>", "2>&1", "2>", "|", ";", ">")
_SPECIAL = re.compile(r"[\s'\"\\;&|<>2#]")


class CommandError(Exception):
    """A command that failed the way a shell's does: `message` on stderr, `status` as its exit status."""

    def __init__(self, message, status=1):
        Exception.__init__(self, message)
        self.status = status


class OutsideWorkspace(PermissionError):
    pass


class SList(list):
    """The lines of `x = !cmd`, with IPython's shortcuts: .n (joined by newlines), .s (by spaces), .l (the list)."""

    @property
    def n(self):
        return "\n".join(self)

    @property
    def s(self):
        return " ".join(self)

    @property
    def l(self):  # noqa: E743 - IPython's name
        return list(self)


def confined(path, cwd=None):
    """The absolute, symlink-resolved path, if it is inside the workspace; else OutsideWorkspace."""
    if path == "~" or path.startswith("~/"):
        path = WORKSPACE + path[1:]
    full = os.path.realpath(os.path.join(cwd or os.getcwd(), path))
    if full != WORKSPACE and not full.startswith(WORKSPACE + "/"):
        raise OutsideWorkspace("%s: outside the workspace (%s); commands here reach only the session's files" % (path, WORKSPACE))
    return full


def split_words(line):
    """Shell-like words of a magic's argument line (quotes removed)."""
    return [word for word, _ in _tokens(line)]


_VARIABLE = re.compile(r"\$\$|\{\{|\}\}|\$([A-Za-z_]\w*)|\{([^{}]+)\}")


def expand_variables(text, namespace):
    """IPython's expansion in ! lines and line magics: $name and {expression} from the user's namespace; $$ is a
    literal $. What cannot be evaluated stays as written."""

    def replace(match):
        whole, name, expression = match.group(0), match.group(1), match.group(2)
        if whole in ("$$", "{{", "}}"):
            return whole[0]
        try:
            return str(namespace[name] if name else eval(expression, namespace))
        except Exception:
            return whole

    return _VARIABLE.sub(replace, text)


def _tokens(line):
    """[(word, quoted)] with operators as their own words (quoted=None)."""
    out, word, quoted, i, n = [], [], False, 0, len(line)
    started = False
    while i < n:
        c = line[i]
        if c in " \t\n":
            if started:
                out.append(("".join(word), quoted))
                word, quoted, started = [], False, False
            i += 1
            continue
        operator = next((op for op in _OPERATORS if line.startswith(op, i)), None)
        if operator is not None and not (operator.startswith("2") and started):
            if started:
                out.append(("".join(word), quoted))
                word, quoted, started = [], False, False
            out.append((operator, None))
            i += len(operator)
            continue
        if c == "#" and not started:
            break  # a comment
        started = True
        if c == "'":
            end = line.find("'", i + 1)
            end = n if end < 0 else end
            word.append(line[i + 1 : end])
            quoted, i = True, end + 1
        elif c == '"':
            i += 1
            while i < n and line[i] != '"':
                if line[i] == "\\" and i + 1 < n and line[i + 1] in '"\\$`':
                    i += 1
                word.append(line[i])
                i += 1
            quoted, i = True, i + 1
        elif c == "\\" and i + 1 < n:
            word.append(line[i + 1])
            quoted, i = True, i + 2
        else:
            # A run of ordinary characters at once (a 200 KB `echo {text}` one character at a time is seconds here).
            end = _SPECIAL.search(line, i + 1)
            end = n if end is None else end.start()
            word.append(line[i:end])
            i = end
    if started:
        out.append(("".join(word), quoted))
    return out


def _parse(line, cwd):
    """[(connector before it, [command])]; a command is {argv, redirect: (mode, path) | None, stderr}."""
    chain, pipeline, command = [], [], {"argv": [], "redirect": None, "stderr": None}
    connector = None
    tokens = _tokens(line)
    i = 0
    while i < len(tokens):
        word, quoted = tokens[i]
        if quoted is None and word in (">", ">>", "2>"):
            if i + 1 >= len(tokens) or tokens[i + 1][1] is None:
                raise CommandError("syntax error near unexpected token `%s'" % (word,), 2)
            target = tokens[i + 1][0]
            if word == "2>":
                command["stderr"] = "drop" if target == "/dev/null" else ("file", target)
            else:
                command["redirect"] = ("a" if word == ">>" else "w", target)
            i += 2
            continue
        if quoted is None and word == "2>&1":
            command["stderr"] = "merge"
        elif quoted is None:
            if not command["argv"]:
                raise CommandError("syntax error near unexpected token `%s'" % (word,), 2)
            pipeline.append(command)
            command = {"argv": [], "redirect": None, "stderr": None}
            if word != "|":
                chain.append((connector, pipeline))
                pipeline, connector = [], word
        elif not quoted and any(ch in word for ch in "*?["):
            import glob

            matches = sorted(glob.glob(os.path.join(cwd, word)))
            base = cwd.rstrip("/") + "/"
            command["argv"].extend([m[len(base):] if m.startswith(base) and not os.path.isabs(word) else m for m in matches] or [word])
        else:
            command["argv"].append(word)
        i += 1
    if command["argv"]:
        pipeline.append(command)
    elif pipeline or connector in ("&&", "||", "|"):
        raise CommandError("syntax error: a command is missing at the end of the line", 2)
    if pipeline:
        chain.append((connector, pipeline))
    return chain


class Context(object):
    """What one command sees: its words, stdin (text or None), where its output goes, the line's directory."""

    def __init__(self, shell, cwd, argv, stdin, out, err):
        self.shell, self.cwd, self.argv, self.stdin, self.out, self.err = shell, cwd, argv, stdin, out, err

    def path(self, name):
        return confined(name, self.cwd)


def _report(err, name, exc):
    if isinstance(exc, OSError) and exc.errno in _QUOTA_ERRNOS:
        err.write("%s: %s (the session's file quota was reached: see server_info; delete files to make room)\n" % (name, exc.strerror))
    elif isinstance(exc, OSError) and not isinstance(exc, OutsideWorkspace) and exc.strerror:
        where = exc.filename if exc.filename is None else os.path.relpath(str(exc.filename), WORKSPACE) if str(exc.filename).startswith(WORKSPACE) else exc.filename
        err.write("%s: %s%s\n" % (name, "" if where is None else "%s: " % (where,), exc.strerror))
    else:
        err.write("%s: %s\n" % (name, exc))


def _run_pipeline(pipeline, state, out, err):
    from .shell_builtins import COMMANDS, unavailable

    stdin, status = None, 0
    for index, command in enumerate(pipeline):
        name = command["argv"][0]
        buffer = io.StringIO()
        command_err = buffer if command["stderr"] == "merge" else io.StringIO() if command["stderr"] else err
        ctx = Context(state["shell"], state["cwd"], command["argv"], stdin, buffer, command_err)
        try:
            function = COMMANDS.get(name)
            status = unavailable(ctx) if function is None else function(ctx) or 0
            state["cwd"] = ctx.cwd
        except CommandError as exc:
            command_err.write("%s: %s\n" % (name, exc))
            status = exc.status
        except (OSError, ValueError, EOFError) as exc:
            _report(command_err, name, exc)
            status = 1
        if isinstance(command["stderr"], tuple):
            _write_to(state["cwd"], command["stderr"][1], "w", command_err.getvalue(), err, name)
        last = index == len(pipeline) - 1
        if not last:
            stdin = buffer.getvalue()
        elif command["redirect"] is not None:
            mode, target = command["redirect"]
            if not _write_to(state["cwd"], target, mode, buffer.getvalue(), err, name):
                status = 1
        else:
            out.write(buffer.getvalue())
    return status


def _write_to(cwd, target, mode, text, err, name):
    if target == "/dev/null":
        return True
    try:
        with open(confined(target, cwd), mode) as handle:
            handle.write(text)
        return True
    except OSError as exc:
        _report(err, name, exc)
        return False


def run(line, shell, out, err):
    """Runs a command line; its exit status (the last command's), as a shell's."""
    state = {"shell": shell, "cwd": os.getcwd()}
    try:
        chain = _parse(line, state["cwd"])
    except CommandError as exc:
        err.write("sh: %s\n" % (exc,))
        return exc.status
    status = 0
    for connector, pipeline in chain:
        if (connector == "&&" and status != 0) or (connector == "||" and status == 0):
            continue
        for command in pipeline:  # `$?`: the status of the command before, as a shell expands it
            command["argv"] = [word.replace("$?", str(status)) for word in command["argv"]]
        status = _run_pipeline(pipeline, state, out, err)
    if chain and chain[-1][1][-1]["argv"][0] == "cd" and len(chain) == 1 and status == 0:
        err.write("note: !cd changes the directory for its own line only (as in IPython); %cd changes the session's\n")
    return status


def capture(line, shell):
    """`x = !cmd`: the lines it printed (stdout, then stderr)."""
    out, err = io.StringIO(), io.StringIO()
    run(line, shell, out, err)
    return (out.getvalue() + err.getvalue()).splitlines()
