"""IPython cell syntax into plain Python, line for line (loaded only for cells that may use it).

Follows IPython's input transformer rules (IPython.core.inputtransformer2): only a line that starts a statement is
rewritten, never a line inside a string, a bracket or a backslash continuation, so `7 % 3`, `'%d' % x` and
`s = '!ls'` stay Python. The rewritten line calls the same `get_ipython()` methods IPython's transformer emits, so
either transformer's output runs on our shell (magics.py). Unlike IPython's, each rewritten line keeps its place:
joined continuation lines become blank lines, so tracebacks point at the user's own lines.
Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import re
import sys

# `%%name args` on the first line: the rest of the cell is the magic's body.
_CELL_MAGIC = re.compile(r"%%([A-Za-z_][\w.]*)[ \t]*(.*)\Z", re.S)
# `obj?`, `obj.attr??`, `%magic?`: IPython's help-end form (a dotted name, literal integer indexes).
_HELP_END = re.compile(r"(%{0,2}(?!\d)[\w*]+(?:\.(?!\d)[\w*]+|\[-?[0-9]+\])*)[ \t]*(\?\??)\Z")
# `target = !cmd` and `target = %magic args` (plain names, attributes, tuples of names; not `==`, `!=`, `+=`).
_ASSIGN = re.compile(r"((?:[A-Za-z_][\w.]*)(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=[ \t]*)(!(?!=)|%(?=[A-Za-z_]))(.*)\Z", re.S)


class _Scanner(object):
    """Follows strings, brackets and continuations over physical lines, to tell where a statement starts."""

    def __init__(self):
        self.quote = None  # the delimiter of an open triple-quoted string
        self.depth = 0
        self.continued = False

    def at_statement_start(self):
        return self.quote is None and self.depth == 0 and not self.continued

    def feed(self, line):
        i, n = 0, len(line)
        comment = False
        while i < n:
            if self.quote is not None:
                if line[i] == "\\":
                    i += 2
                elif line.startswith(self.quote, i):
                    self.quote = None
                    i += 3
                else:
                    i += 1
                continue
            c = line[i]
            if c == "#":
                comment = True
                break
            if c in "'\"":
                if line.startswith(c * 3, i):
                    self.quote = c * 3
                    i += 3
                    continue
                i += 1
                while i < n and line[i] != c and line[i] != "\n":
                    i += 2 if line[i] == "\\" else 1
                i += 1
                continue
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        self.continued = self.quote is None and not comment and line.rstrip("\r\n").endswith("\\")


def _help_call(target, escape):
    method = "pinfo2" if escape == "??" else "pinfo"
    return "get_ipython().run_line_magic(%r, %r)" % (method, target)


def _rewrite(text):
    """The call for one statement-start line (indent removed), or None if the line is plain Python."""
    if text.startswith("!!"):
        return "get_ipython().getoutput(%r)" % (text[2:],)
    if text.startswith("!"):
        return "get_ipython().system(%r)" % (text[1:],)
    help_end = _HELP_END.match(text)
    if help_end is not None:
        return _help_call(help_end.group(1), help_end.group(2))
    if text.startswith("??") or text.startswith("?"):
        escape = "??" if text.startswith("??") else "?"
        target = text[len(escape):].strip()
        return "get_ipython().show_usage()" if not target else _help_call(target, escape)
    if text.startswith("%"):
        name, _, args = text[1:].partition(" ")
        return "get_ipython().run_line_magic(%r, %r)" % (name, args.strip())
    assign = _ASSIGN.match(text)
    if assign is not None:
        lhs, escape, rest = assign.groups()
        if escape == "!":
            return lhs + "get_ipython().getoutput(%r)" % (rest[1:] if rest.startswith("!") else rest,)
        name, _, args = rest.partition(" ")
        return lhs + "get_ipython().run_line_magic(%r, %r)" % (name, args.strip())
    return None


def _logical(lines, start):
    """A line and the backslash-continued lines after it, joined as IPython joins them; and how many it used."""
    text = lines[start].rstrip("\r\n")
    used = 1
    while text.endswith("\\") and start + used < len(lines):
        text = text[:-1] + " " + lines[start + used].strip()
        used += 1
    return text, used


def _cell_magic(lines):
    """(index of the `%%` line, the call) when the cell starts with a cell magic, else None."""
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        match = _CELL_MAGIC.match(line.strip())
        if match is None or _HELP_END.match(line.strip()):
            return None
        body = "".join(lines[index + 1 :])
        return index, "get_ipython().run_cell_magic(%r, %r, %r)\n" % (match.group(1), match.group(2).strip(), body)
    return None


def _ipython_manager():
    """IPython's own TransformerManager when the session has the real IPython loaded (the modern runtime with the
    ipython package installed and imported), else None: its import is heavy, so it is never loaded for this."""
    module = sys.modules.get("IPython")
    if module is None or not hasattr(module, "__path__"):
        return None  # absent, or the harness's display-only stand-in
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except Exception:
        return None
    return TransformerManager()


def transform_cell(code):
    """The cell as plain Python; a cell without IPython syntax comes back unchanged."""
    manager = _ipython_manager()
    if manager is not None:
        return manager.transform_cell(code)
    lines = code.splitlines(True)
    magic = _cell_magic(lines)
    if magic is not None:
        index, call = magic
        return "\n" * index + call
    out = []
    scanner = _Scanner()
    i = 0
    while i < len(lines):
        if scanner.at_statement_start():
            stripped = lines[i].lstrip(" \t")
            indent = lines[i][: len(lines[i]) - len(stripped)]
            text, used = _logical(lines, i)
            call = _rewrite(text[len(indent):]) if stripped.strip() and not stripped.startswith("#") else None
            if call is not None:
                # The joined continuation lines stay as blank lines: the lines after keep their numbers.
                out.append(indent + call + "\n" + "\n" * (used - 1))
                i += used
                continue
        scanner.feed(lines[i])
        out.append(lines[i])
        i += 1
    return "".join(out)
