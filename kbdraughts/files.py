"""Text files a person writes or keeps: read as their editor shows them, written whole.

- :func:`editor_lines` splits text into lines the way an editor counts them (only ``\\n`` ends
  a line; one ``\\r`` before it goes with it), so ``file:line`` in a message is the line the
  person sees. ``str.splitlines`` also breaks at a form feed, U+0085, U+2028 and more, which
  would shift every later line number.
- :func:`decode_text` reads a file's bytes as UTF-8, or raises :class:`NotUtf8Error` naming
  the line of the first bad byte.
- :func:`control_character` finds what a line must not hold (escape sequences and other
  control characters would reach the terminal); :func:`printable` escapes them in text that
  came from a file before it is shown.
- :func:`write_atomic` writes a temporary file beside the target and renames it over it, so a
  full disk or a kill leaves the old file as it was, never a cut one.

>>> editor_lines("a\\r\\nb\\x0cc\\u2028d\\r\\r\\ne")
['a', 'b\\x0cc\\u2028d\\r', 'e']
>>> printable("name\\x1b[2J")
'name\\\\x1b[2J'
>>> control_character("ok\\tfine"), control_character("bad\\x85")
(None, 'U+0085')
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

__all__ = [
    "editor_lines", "decode_text", "NotUtf8Error", "NOT_UTF8", "control_character", "printable",
    "write_atomic",
]

#: Control characters (Unicode Cc, but the tab) and the line and paragraph separators.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def editor_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them: split at ``\\n``, one trailing ``\\r``
    dropped. A final ``\\n`` does not start another line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


#: What a file that is not UTF-8 earns, after ``path:line: error: ``.
NOT_UTF8 = "not UTF-8 text: save the file as UTF-8"


class NotUtf8Error(ValueError):
    """A file that is not UTF-8 text; ``str`` is ``path:line: error: not UTF-8 ...``."""

    def __init__(self, path: str, line: int):
        super().__init__(f"{path}:{line}: error: {NOT_UTF8}")
        self.path = path
        self.line = line


def decode_text(data: bytes, path: str | os.PathLike) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or NotUtf8Error at the line
    of the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = e.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise NotUtf8Error(str(path), data[:start].count(b"\n") + 1) from None


def control_character(line: str) -> str | None:
    """The first control character in ``line`` as ``U+XXXX`` (None when there is none)."""
    m = _CONTROL.search(line)
    return None if m is None else f"U+{ord(m.group()):04X}"


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with its control characters written as escapes (``\\x1b``), safe to show."""
    return _CONTROL.sub(_escape, text)


#: Control characters but the line breaks and tabs a page of text holds (``\r`` before ``\n``).
_CONTROL_IN_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]|\r(?!\n)")


def printable_lines(text: str) -> str:
    r"""``text`` for a terminal: its lines and tabs kept, every other control character (an
    escape sequence's ````, a bare ````, a backspace) written as an escape.

    >>> printable_lines("[White \"\x1b[2J\"]\r\n1. c3-d4\tx\b")
    '[White "\\x1b[2J"]\r\n1. c3-d4\tx\\x08'
    """
    return _CONTROL_IN_LINES.sub(_escape, text)


def write_atomic(path: str | os.PathLike, text: str, append: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path``: a temporary file beside it, then renamed over it,
    so the file is always the old one or the new one, whole. ``append`` adds ``text`` to the
    end instead (flushed, not synced: cheap enough for a game at a time): what was there is
    never rewritten. A symbolic link is
    followed, the file it points to replaced; the file's permissions are kept."""
    path = Path(path)
    if append:
        with path.open("a", encoding="utf-8") as f:
            f.write(text)
        return
    if path.is_symlink():
        path = path.resolve()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
