"""What the `!` commands share: their flags, their text inputs, sizes as `-h` prints them, a depth-first walk.

Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import os

from .shell_commands import CommandError


def flags(argv, known, with_value=""):
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


def text_inputs(ctx, operands):
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


def human(size):
    for unit in ("", "K", "M", "G"):
        if size < 1024 or unit == "G":
            return ("%d%s" % (size, unit)) if unit == "" or size >= 10 else ("%.1f%s" % (size, unit))
        size /= 1024.0
    return str(size)


def walk(path):
    """The path, then what is under it, depth first in name order (find's order)."""
    yield path
    if os.path.isdir(path) and not os.path.islink(path):
        for entry in sorted(os.listdir(path)):
            for inner in walk(os.path.join(path, entry)):
                yield inner


