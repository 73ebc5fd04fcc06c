"""The commands a `!` line can run, as Python over the session's file system (shell_commands.py parses the line).

Each takes a Context (argv, stdin, out, err, cwd) and returns its exit status; a CommandError or an OSError is
reported by the caller as a shell would. Paths go through ctx.path(), which refuses anything outside the workspace.
Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import fnmatch
import os
import re
import shutil
import stat
import time

from .shell_commands import WORKSPACE, CommandError


def _flags(argv, known, with_value=""):
    """(set of single-letter flags, {flag: value}, operands) of argv[1:]; `-n5` and `-n 5` both work."""
    flags, values, operands, words = set(), {}, [], list(argv[1:])
    while words:
        word = words.pop(0)
        if word == "--":
            operands.extend(words)
            break
        if word.startswith("-") and len(word) > 1 and not word[1:].isdigit():
            letters = word[1:]
            for index, letter in enumerate(letters):
                if letter in with_value:
                    value = letters[index + 1 :] or (words.pop(0) if words else "")
                    values[letter] = value
                    break
                if letter not in known:
                    raise CommandError("invalid option -- '%s' (supported: %s)" % (letter, " ".join("-" + k for k in known + with_value)), 2)
                flags.add(letter)
            continue
        if word.startswith("-") and word[1:].isdigit() and "n" in with_value:
            values["n"] = word[1:]  # head -5
            continue
        operands.append(word)
    return flags, values, operands


def _text_inputs(ctx, operands):
    """[(name, text)] of the files named, or of stdin when none is."""
    if not operands:
        if ctx.stdin is None:
            raise CommandError("no file given (and nothing piped in: there is no interactive input here)")
        return [("-", ctx.stdin)]
    inputs = []
    for name in operands:
        path = ctx.path(name)
        if os.path.isdir(path):
            raise CommandError("%s: Is a directory" % (name,))
        with open(path, errors="replace") as handle:
            inputs.append((name, handle.read()))
    return inputs


def _human(size):
    for unit in ("", "K", "M", "G"):
        if size < 1024 or unit == "G":
            return ("%d%s" % (size, unit)) if unit == "" or size >= 10 else ("%.1f%s" % (size, unit))
        size /= 1024.0
    return str(size)


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


def mkdir(ctx):
    flags, _, operands = _flags(ctx.argv, "pv")
    if not operands:
        raise CommandError("missing operand")
    for name in operands:
        path = ctx.path(name)
        if "p" in flags:
            os.makedirs(path, exist_ok=True)
        elif os.path.exists(path):
            raise CommandError("cannot create directory '%s': File exists" % (name,))
        else:
            os.mkdir(path)
    return 0


def rm(ctx):
    flags, _, operands = _flags(ctx.argv, "rRfv")
    status = 0
    for name in operands:
        path = ctx.path(name)
        if path == WORKSPACE:
            raise CommandError("refusing to remove the workspace itself ('%s'); remove what is in it instead (rm -r *)" % (name,))
        if not os.path.lexists(path):
            if "f" not in flags:
                ctx.err.write("rm: cannot remove '%s': No such file or directory\n" % (name,))
                status = 1
        elif os.path.isdir(path) and not os.path.islink(path):
            if not flags & set("rR"):
                ctx.err.write("rm: cannot remove '%s': Is a directory\n" % (name,))
                status = 1
            else:
                shutil.rmtree(path)
        else:
            os.remove(path)
    if not operands and "f" not in flags:
        raise CommandError("missing operand")
    return status


def _into(ctx, sources, destination):
    """(source path, target path) pairs of cp/mv: into a directory when the destination is one."""
    target = ctx.path(destination)
    if len(sources) > 1 and not os.path.isdir(target):
        raise CommandError("target '%s' is not a directory" % (destination,))
    pairs = []
    for name in sources:
        source = ctx.path(name)
        if not os.path.lexists(source):
            raise CommandError("cannot stat '%s': No such file or directory" % (name,))
        pairs.append((source, os.path.join(target, os.path.basename(source)) if os.path.isdir(target) else target))
    return pairs


def cp(ctx):
    flags, _, operands = _flags(ctx.argv, "rRfpav")
    if len(operands) < 2:
        raise CommandError("missing destination file operand")
    for source, target in _into(ctx, operands[:-1], operands[-1]):
        if os.path.isdir(source):
            if not flags & set("rRa"):
                raise CommandError("-r not specified; omitting directory '%s'" % (os.path.relpath(source, ctx.cwd),))
            shutil.copytree(source, target)
        else:
            shutil.copyfile(source, target)
    return 0


def mv(ctx):
    _, _, operands = _flags(ctx.argv, "fv")
    if len(operands) < 2:
        raise CommandError("missing destination file operand")
    for source, target in _into(ctx, operands[:-1], operands[-1]):
        shutil.move(source, target)
    return 0


def touch(ctx):
    _, _, operands = _flags(ctx.argv, "c")
    for name in operands:
        path = ctx.path(name)
        if os.path.exists(path):
            os.utime(path)
        else:
            open(path, "a").close()
    return 0


def echo(ctx):
    words = ctx.argv[1:]
    newline = True
    if words and words[0] == "-n":
        newline, words = False, words[1:]
    ctx.out.write(" ".join(words) + ("\n" if newline else ""))
    return 0


def _walk(path):
    """The path, then what is under it, depth first in name order (find's order)."""
    yield path
    if os.path.isdir(path) and not os.path.islink(path):
        for entry in sorted(os.listdir(path)):
            for inner in _walk(os.path.join(path, entry)):
                yield inner


def find(ctx):
    words = ctx.argv[1:]
    roots = []
    while words and not words[0].startswith("-"):
        roots.append(words.pop(0))
    tests = {}
    while words:
        option = words.pop(0)
        if option not in ("-name", "-iname", "-type") or not words:
            raise CommandError("unsupported or incomplete expression '%s' (supported: -name, -iname, -type f|d)" % (option,))
        tests[option] = words.pop(0)
    for root in roots or ["."]:
        base = ctx.path(root)
        if not os.path.lexists(base):
            raise CommandError("'%s': No such file or directory" % (root,))
        for path in _walk(base):
            name = os.path.basename(path)
            if "-name" in tests and not fnmatch.fnmatchcase(name, tests["-name"]):
                continue
            if "-iname" in tests and not fnmatch.fnmatch(name.lower(), tests["-iname"].lower()):
                continue
            kind = tests.get("-type")
            if kind and (kind == "d") != os.path.isdir(path):
                continue
            ctx.out.write(root.rstrip("/") + path[len(base):] + "\n" if root != "/" else path + "\n")
    return 0


def grep(ctx):
    flags, values, operands = _flags(ctx.argv, "inrRvlcwHE", "e")
    pattern = values.get("e")
    if pattern is None:
        if not operands:
            raise CommandError("no pattern given (grep [-i -n -r -v -l -c] pattern [file ...])", 2)
        pattern = operands.pop(0)
    try:
        regex = re.compile(r"\b(?:%s)\b" % pattern if "w" in flags else pattern, re.IGNORECASE if "i" in flags else 0)
    except re.error as exc:
        raise CommandError("invalid pattern: %s" % (exc,), 2)
    recursive = bool(flags & set("rR"))
    if recursive:
        names = []
        for root in operands or ["."]:
            base = ctx.path(root)
            if os.path.isdir(base):
                for directory, subdirs, files in os.walk(base):
                    subdirs.sort()
                    names.extend(os.path.relpath(os.path.join(directory, f), ctx.cwd) for f in sorted(files))
            else:
                names.append(root)
        operands = names
    inputs = _text_inputs(ctx, operands) if operands or not recursive else []
    prefix = len(inputs) > 1 or recursive or "H" in flags
    matched = False
    for name, text in inputs:
        hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if bool(regex.search(line)) != ("v" in flags)]
        matched = matched or bool(hits)
        if "l" in flags:
            if hits:
                ctx.out.write(name + "\n")
            continue
        if "c" in flags:
            ctx.out.write(("%s:" % name if prefix else "") + "%d\n" % len(hits))
            continue
        for number, line in hits:
            ctx.out.write(("%s:" % name if prefix else "") + ("%d:" % number if "n" in flags else "") + line + "\n")
    return 0 if matched else 1


def du(ctx):
    flags, _, operands = _flags(ctx.argv, "sh")
    for name in operands or ["."]:
        path = ctx.path(name)
        total = os.path.getsize(path) if not os.path.isdir(path) else 0
        for directory, _, files in os.walk(path):
            total += sum(os.path.getsize(os.path.join(directory, f)) for f in files if not os.path.islink(os.path.join(directory, f)))
        size = _human(total) if "h" in flags else str((total + 1023) // 1024)
        ctx.out.write("%s\t%s\n" % (size, name))
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
