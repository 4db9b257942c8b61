"""Progress of long work as one status written after pytest's own progress line and erased when the work ends, so
pytest's line goes on as if nothing had been written; nothing at all when the output is not a terminal (a CI log
keeps only the one summary line that says what the work cost)."""

from __future__ import annotations

from typing import Optional


class StatusLine:
    """``show(text)`` writes ``text`` where the terminal's cursor stands (after pytest's progress so far) and
    ``show(None)`` erases it. It writes around pytest's terminal writer, whose idea of the current line's width
    (which right-aligns the ``[ 50%]`` progress) must not change, and keeps within the terminal's width, so that
    the text never wraps onto a line it could not erase."""

    def __init__(self, reporter, stream, prefix: str = "  "):
        self._reporter = reporter
        self._stream = stream  # the file pytest's terminal writer writes to, outside output capture
        self._prefix = prefix
        self._shown = 0  # characters on the terminal now

    def active(self) -> bool:
        isatty = getattr(self._reporter, "isatty", False)
        return bool(isatty() if callable(isatty) else isatty)

    def show(self, text: Optional[str]) -> None:
        if not self.active():
            return
        out = self._erase()
        if text:
            tw = self._reporter._tw
            room = tw.fullwidth - max(tw.width_of_current_line, 0) - 1
            text = (self._prefix + text)[:max(room, 0)]
            out += text
            self._shown = len(text)
        self._stream.write(out)
        self._stream.flush()

    def _erase(self) -> str:
        n, self._shown = self._shown, 0
        return "\b" * n + " " * n + "\b" * n
