"""A cell's output streams, bounded: memory held for output must not grow with what user code prints."""
import io


class BoundedStream(io.TextIOBase):
    """A text stream that keeps at most `limit` characters and counts the rest.

    Why: memory held for output must not grow with what user code prints.
    """

    def __init__(self, name, limit):
        super().__init__()
        self.name = name
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.omitted = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not " + type(text).__name__)
        room = self.limit - self.kept
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.kept += len(piece)
            self.omitted += len(text) - len(piece)
        else:
            self.omitted += len(text)
        return len(text)

    def flush(self):
        pass

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
