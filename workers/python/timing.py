"""%time, %%time and %timeit / %%timeit, with IPython's output format.

The timed code is compiled under the cell's file name at its own line numbers, so a traceback from inside it quotes
the user's line. Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import ast
import math
import sys
import time
import timeit

# %timeit without -r: its runs stop short of this many seconds in all (IPython's 7 runs of >= 0.2 s each can be
# many seconds for a slow statement, and the whole cell shares one time limit).
_TIMEIT_BUDGET_S = 5.0


def format_time(seconds, precision=3):
    """IPython's format: 1.23 ms, 456 µs, 2min 3s."""
    if seconds >= 60.0:
        parts = []
        left = seconds
        for suffix, length in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
            value = int(left / length)
            if value > 0:
                left = left % length
                parts.append("%d%s" % (value, suffix))
            if left < 1:
                break
        return " ".join(parts)
    units = ("s", "ms", "\u03bcs", "ns")
    order = min(-int(math.floor(math.log10(seconds)) // 3), 3) if seconds > 0.0 else 3
    return "%.*g %s" % (precision, seconds * (1000 ** order), units[order])


def _compile(source, where):
    """(statements, last expression or None) compiled at the user's line numbers; IPython syntax inside is
    transformed first (line for line)."""
    from .notebook_syntax import transform_cell

    filename, first_line = where
    source = transform_cell(source)
    padded = "\n" * (first_line - 1) + source
    tree = ast.parse(padded, filename, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = compile(ast.Expression(tree.body.pop().value), filename, "eval")
    return compile(tree, filename, "exec"), last


def run_timed(source, _setup, namespace, where, quiet=False):
    """%time / %%time: runs the code once and prints CPU and wall time; the last expression's value is returned."""
    body, last = _compile(source, where)
    wall, cpu = time.perf_counter(), time.process_time()
    exec(body, namespace)
    value = eval(last, namespace) if last is not None else None
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if cpu == 0.0:
        cpu = wall  # the legacy runtime's process clock does not advance; one thread: CPU time is the wall time
    if not quiet:
        # WebAssembly has no kernel time of its own: all CPU time is the user's.
        print("CPU times: user %s, sys: %s, total: %s" % (format_time(cpu), format_time(0.0), format_time(cpu)))
        print("Wall time: %s" % (format_time(wall),))
    return value


def _options(line):
    """(number, repeat, quiet, return_result, precision, rest of the line) from %timeit's options."""
    words = line.split()
    number, repeat, quiet, result, precision = None, None, False, False, 3
    while words and words[0].startswith("-") and len(words[0]) > 1:
        flag = words.pop(0)
        value_flags = {"-n": "number", "-r": "repeat", "-p": "precision"}
        if flag[:2] in value_flags:
            text = flag[2:] or (words.pop(0) if words else "")
            try:
                value = int(text)
            except ValueError:
                raise ValueError("%%timeit %s needs a whole number, got %r" % (flag[:2], text))
            if value < 1:
                raise ValueError("%%timeit %s needs a number above 0" % (flag[:2],))
            if flag[:2] == "-n":
                number = value
            elif flag[:2] == "-r":
                repeat = value
            else:
                precision = value
        elif flag == "-q":
            quiet = True
        elif flag == "-o":
            result = True
        else:
            raise ValueError("%%timeit option %s is not supported here (use -n, -r, -p, -q, -o)" % (flag,))
    return number, repeat, quiet, result, precision, " ".join(words)


class TimeitResult(object):
    """What `%timeit -o` returns (IPython's attribute names)."""

    def __init__(self, loops, repeat, all_runs, precision):
        self.loops, self.repeat, self.all_runs, self._precision = loops, repeat, all_runs, precision
        self.timings = [run / loops for run in all_runs]
        self.best, self.worst = min(self.timings), max(self.timings)
        self.average = sum(self.timings) / len(self.timings)
        self.stdev = math.sqrt(sum((t - self.average) ** 2 for t in self.timings) / len(self.timings))

    def __str__(self):
        return "%s \u00b1 %s per loop (mean \u00b1 std. dev. of %d run%s, %s loop%s each)" % (
            format_time(self.average, self._precision),
            format_time(self.stdev, self._precision),
            self.repeat,
            "" if self.repeat == 1 else "s",
            "{:,}".format(self.loops),
            "" if self.loops == 1 else "s",
        )

    def __repr__(self):
        return "<TimeitResult : %s>" % (self,)


def run_timeit(line, cell, namespace, _where):
    """%timeit stmt / %%timeit [setup] + body, with -n loops, -r runs, -q, -o, -p."""
    number, repeat, quiet, want_result, precision, rest = _options(line)
    stmt, setup = (rest, "pass") if cell is None else (cell, rest or "pass")
    if not stmt.strip():
        raise ValueError("%timeit needs a statement to time: %timeit expression")
    timer = timeit.Timer(stmt, setup, timer=time.perf_counter, globals=namespace)
    once = None
    if number is None:
        # IPython's rule: 1, 10, 100, ... loops until one run takes at least 0.2 s.
        for power in range(10):
            number = 10 ** power
            once = timer.timeit(number)
            if once >= 0.2:
                break
    if repeat is None:
        once = timer.timeit(number) if once is None else once
        repeat = max(1, min(7, int(_TIMEIT_BUDGET_S / once) if once > 0 else 7))
    all_runs = timer.repeat(repeat, number)
    result = TimeitResult(number, repeat, all_runs, precision)
    if not quiet:
        print(result)
    return result if want_result else None
