"""The commands a `!` line can run, as Python over the session's file system (shell_commands.py parses the line):
listing and reading here, changing and searching in shell_file_ops.py, archives in shell_archives.py.

Each takes a Context (argv, stdin, out, err, cwd) and returns its exit status; a CommandError or an OSError is
reported by the caller as a shell would. Paths go through ctx.path(), which refuses anything outside the workspace.
Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import os
import stat
import time

from .shell_args import flags as _flags, human as _human, text_inputs as _text_inputs
from .shell_commands import WORKSPACE, CommandError
from .shell_file_ops import cp, du, find, grep, mkdir, mv, rm, touch


def _long_line(path, name, human):
    info = os.lstat(path)
    size = _human(info.st_size) if human else str(info.st_size)
    stamp = time.strftime("%b %d %H:%M", time.gmtime(info.st_mtime))
    return "%s 1 user user %6s %s %s" % (stat.filemode(info.st_mode), size, stamp, name)


def ls(ctx):
    flags, _, operands = _flags(ctx.argv, "laRh1A")
    targets = operands or ["."]
    files = [t for t in targets if not os.path.isdir(ctx.path(t))]
    dirs = [t for t in targets if os.path.isdir(ctx.path(t))]
    status = 0
    for name in files:
        if not os.path.lexists(ctx.path(name)):
            ctx.err.write("ls: cannot access '%s': No such file or directory\n" % (name,))
            status = 2
        else:
            ctx.out.write((_long_line(ctx.path(name), name, "h" in flags) if "l" in flags else name) + "\n")
    pending = [(d, len(targets) > 1 or "R" in flags) for d in dirs]
    first = not files
    while pending:
        name, header = pending.pop(0)
        path = ctx.path(name)
        entries = sorted(os.listdir(path))
        if "a" not in flags and "A" not in flags:
            entries = [e for e in entries if not e.startswith(".")]
        shown = ([".", ".."] if "a" in flags else []) + entries
        if header:
            ctx.out.write(("" if first else "\n") + name + ":\n")
        first = False
        if "l" in flags:
            total = sum(os.lstat(os.path.join(path, e)).st_blocks if hasattr(os.lstat(os.path.join(path, e)), "st_blocks") else 0 for e in entries)
            ctx.out.write("total %d\n" % (total // 2,))
            for entry in shown:
                ctx.out.write(_long_line(os.path.join(path, entry), entry, "h" in flags) + "\n")
        else:
            for entry in shown:
                ctx.out.write(entry + "\n")
        if "R" in flags:
            subdirs = [os.path.join(name, e) for e in entries if os.path.isdir(os.path.join(path, e)) and not os.path.islink(os.path.join(path, e))]
            pending = [(d, True) for d in subdirs] + pending
    return status


def cat(ctx):
    _, _, operands = _flags(ctx.argv, "")
    for _, text in _text_inputs(ctx, operands):
        ctx.out.write(text)
    return 0


def _head_tail(ctx, tail):
    _, values, operands = _flags(ctx.argv, "", "n")
    count = values.get("n", "10")
    try:
        number = int(count.lstrip("+"))
    except ValueError:
        raise CommandError("invalid number of lines: '%s'" % (count,))
    inputs = _text_inputs(ctx, operands)
    for index, (name, text) in enumerate(inputs):
        if len(inputs) > 1:
            ctx.out.write(("\n" if index else "") + "==> %s <==\n" % (name,))
        lines = text.splitlines(True)
        ctx.out.write("".join(lines[-number:] if tail and number else [] if tail else lines[:number]))
    return 0


def head(ctx):
    return _head_tail(ctx, False)


def tail(ctx):
    return _head_tail(ctx, True)


def wc(ctx):
    flags, _, operands = _flags(ctx.argv, "lwc")
    wanted = [f for f in "lwc" if f in flags] or ["l", "w", "c"]
    rows = []
    for name, text in _text_inputs(ctx, operands):
        counts = {"l": text.count("\n"), "w": len(text.split()), "c": len(text.encode("utf-8"))}
        rows.append(([counts[f] for f in wanted], "" if name == "-" else name))
    if len(rows) > 1:
        rows.append(([sum(row[0][i] for row in rows) for i in range(len(wanted))], "total"))
    width = max(len(str(n)) for row in rows for n in row[0]) if len(rows) > 1 or len(wanted) > 1 else 0
    for counts, name in rows:
        ctx.out.write(" ".join(str(n).rjust(width) for n in counts) + (" " + name if name else "") + "\n")
    return 0


def pwd(ctx):
    ctx.out.write(ctx.cwd + "\n")
    return 0


def cd(ctx):
    target = ctx.argv[1] if len(ctx.argv) > 1 else WORKSPACE
    path = ctx.path(target)
    if not os.path.isdir(path):
        raise CommandError("%s: No such file or directory" % (target,))
    ctx.cwd = path
    return 0


def echo(ctx):
    words = ctx.argv[1:]
    newline = True
    if words and words[0] == "-n":
        newline, words = False, words[1:]
    ctx.out.write(" ".join(words) + ("\n" if newline else ""))
    return 0


def pip(ctx):
    from .pip_magic import pip_command

    return pip_command(ctx.argv[1:], ctx.out, ctx.err)


def unzip(ctx):
    from .shell_archives import unzip as run  # zipfile and tarfile load only when an archive is opened

    return run(ctx)


def tar(ctx):
    from .shell_archives import tar as run

    return run(ctx)


def true(ctx):
    return 0


def false(ctx):
    return 1


_ADVICE = (
    (("python", "python3", "ipython"), "run a Python file with %run file.py (or the run_file tool), or put the code in the cell"),
    (("pip3",), "use %pip install name (or the install_packages tool)"),
    (("apt", "apt-get", "conda", "brew", "yum", "mamba", "npm"), "install Python packages with %pip install name (or the install_packages tool)"),
    (("curl", "wget", "git", "ssh", "scp", "ping", "nc"), "there is no network: bring files in with the upload_file or write_file tools"),
    (("gcc", "cc", "g++", "make", "cmake", "clang", "rustc", "go", "java", "javac", "node"), "only Python runs here; compiled extensions come from the offline package set"),
    (("sudo", "su", "chmod", "chown", "kill", "ps", "top"), "there are no processes or users in this sandbox"),
)


def unavailable(ctx):
    name = ctx.argv[0]
    advice = next((text for names, text in _ADVICE if name in names), None)
    if name == "pip3":
        return pip(ctx)
    if advice is None:
        advice = "the commands here are " + ", ".join(sorted(COMMANDS))
    ctx.err.write("%s: not available: this sandbox runs no processes and has no network (WebAssembly); %s\n" % (name, advice))
    return 127


COMMANDS = {
    "ls": ls,
    "cat": cat,
    "head": head,
    "tail": tail,
    "wc": wc,
    "pwd": pwd,
    "cd": cd,
    "mkdir": mkdir,
    "rm": rm,
    "cp": cp,
    "mv": mv,
    "touch": touch,
    "echo": echo,
    "find": find,
    "grep": grep,
    "du": du,
    "unzip": unzip,
    "tar": tar,
    "pip": pip,
    "true": true,
    "false": false,
}
