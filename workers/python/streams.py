"""A cell's output streams, bounded: memory held for output must not grow with what user code prints. With a browser
view open, what they keep is also forwarded while the cell runs (LiveOutput)."""
import io
import time

# The worker's function that sends a running cell's output to the host (workers/thread/live-output.ts), looked up once.
_live_sender = []
# The cheapest clock on both runtimes (measured on 0.17: perf_counter 1.1 us a call, monotonic 1.0-5.8, time 1.7-2.6;
# on 314 they are all alike, 1-6 us under load).
_clock = time.perf_counter


class BoundedStream(io.TextIOBase):
    """A text stream that keeps at most `limit` characters and counts the rest.

    Why: memory held for output must not grow with what user code prints.
    """

    def __init__(self, name, limit, live=None):
        super().__init__()
        self.name = name
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.omitted = 0
        # The cell's LiveOutput when the host asked for its output while it runs, else None; what it has not sent yet.
        self.live = live
        self.unsent = live.pending[name] if live is not None else None
        # Kept characters after the last line end, and whether a carriage return ended the last write: the next text
        # replaces that line (_write_returns).
        self.line_length = 0
        self.returned = False

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not " + type(text).__name__)
        if self.returned or "\r" in text:
            self._write_returns(text)
            return len(text)
        room = self.limit - self.kept
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.kept += len(piece)
            self.omitted += len(text) - len(piece)
            line_end = piece.rfind("\n")
            self.line_length = len(piece) - line_end - 1 if line_end >= 0 else self.line_length + len(piece)
            live = self.live
            if live is not None and piece:
                # LiveOutput's rule, inlined: it runs for every write. A clock read costs 1-6 us on the modern runtime
                # (measured), as much as the rest of a print, so print()'s own line end, half of all writes, is
                # sent without one, only to complete a line sent just before.
                self.unsent.append(piece)
                if piece == "\n":
                    if live.line_open:
                        live.line_open = False
                        live.flush()
                else:
                    now = _clock()
                    if now >= live.due:
                        live.due = now + live.INTERVAL
                        live.line_open = piece[-1:] != "\n"
                        live.flush()
                    elif live.line_open and piece[-1:] == "\n":
                        live.line_open = False
                        live.flush()
        else:
            self.omitted += len(text)
        return len(text)

    def _write_returns(self, text):
        """A carriage return starts the current line again, as in a terminal and in Jupyter's output area: the next
        text other than a line end replaces the line. So a progress bar redrawn a thousand times (tqdm, Keras, a
        print that ends with a carriage return) keeps one line, and its last state is not lost to the limit. The
        browser view is sent the carriage returns too (view/view.js applies the same rule)."""
        for index, segment in enumerate(text.split("\r")):
            if index:
                self.returned = True
                unsent = self.unsent
                if unsent is not None and self.kept < self.limit and (not unsent or unsent[-1] != "\r"):
                    unsent.append("\r")  # sent with the next piece; one for a run of them
            if not segment:
                continue
            if self.returned:
                self.returned = False
                if segment[0] != "\n":
                    self._drop_line()
            self.write(segment)

    def _drop_line(self):
        """Removes the kept characters of the current line (after the last line end)."""
        drop = self.line_length
        self.line_length = 0
        self.kept -= drop
        parts = self.parts
        while drop > 0:
            last = parts[-1]
            if len(last) <= drop:
                parts.pop()
                drop -= len(last)
            else:
                parts[-1] = last[:-drop]
                drop = 0

    def flush(self):
        """print(..., flush=True), sys.stdout.flush() (tqdm calls it after each redraw) and time.sleep send the browser
        view what it was not sent yet, within LiveOutput's rate: a piece printed just before a quiet stretch shows."""
        live = self.live
        if live is not None and (live.pending["stdout"] or live.pending["stderr"]):
            now = _clock()
            if now >= live.due:
                live.due = now + live.INTERVAL
                live.line_open = False
                live.flush()

    def clear(self):
        """Drops what was kept (IPython's clear_output): the limit applies again to what comes after. What the browser
        view was already sent stays there."""
        self.parts = []
        self.kept = 0
        self.omitted = 0
        self.line_length = 0
        self.returned = False
        if self.unsent is not None:
            del self.unsent[:]

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"

    def getvalue(self):
        return "".join(self.parts)


def bounded(text, limit):
    """Returns (kept text, omitted character count)."""
    if text is None or len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


class LiveOutput(object):
    """Forwards what a cell's streams keep to the worker while the cell runs, for the browser view: at once when
    nothing was sent in the last INTERVAL seconds, else with the next write after that (Python cannot be called back
    while it runs, so a piece written just before a long computation waits for the next one; the cell's reply has all
    of it anyway). One exception: the newline print() writes right after its text is sent at once too, so that a line
    printed before a long computation shows whole. So at most two calls per stream per INTERVAL, each of at most
    CHUNK characters. The worker checks and bounds what it is given again (user code can call it too)."""

    INTERVAL = 0.05
    CHUNK = 16384

    def __init__(self):
        if not _live_sender:
            import pyodide_js

            _live_sender.append(pyodide_js._pyodide_mcp_live_output)
        self.send = _live_sender[0]
        self.pending = {"stdout": [], "stderr": []}
        # When the next write is sent at once (the first is; BoundedStream.write applies the rule).
        self.due = 0.0
        # The last send was due (not a line's end) and did not end a line: the next write that does is sent too.
        self.line_open = False

    def flush(self):
        send = self.send
        for name in ("stdout", "stderr"):
            parts = self.pending[name]
            if not parts:
                continue
            text = "".join(parts)
            del parts[:]
            try:
                for start in range(0, len(text), self.CHUNK):
                    send(name, text[start : start + self.CHUNK])
            except Exception:
                # The live view is a convenience: a failure to send never fails the user's print.
                self.send = lambda name, text: None
