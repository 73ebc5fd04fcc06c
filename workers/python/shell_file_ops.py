"""The `!` commands that change or search the session's files: mkdir, rm, cp, mv, touch, find, grep, du.

Each takes a Context and returns its exit status (shell_builtins.py has the table). Runs on Python 3.8 and 3.14.
"""
import fnmatch
import os
import re
import shutil

from .shell_args import flags as _flags, human as _human, text_inputs as _text_inputs, walk as _walk
from .shell_commands import WORKSPACE, CommandError


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
