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
- :func:`read_form` reads a file's bytes the way they came (:class:`TextForm`: its encoding,
  byte-order mark and line end; a byte that is not text kept as a lone surrogate), so
  :func:`write_atomic` given that form writes back the very bytes of everything not changed.
- :func:`write_atomic` writes a temporary file beside the target and renames it over it, so a
  full disk or a kill leaves the old file as it was, never a cut one; a FIFO or a device is
  refused, never replaced (:class:`SpecialFileError`).
- :func:`stale_temporaries` finds the temporary files a killed writer left.

>>> editor_lines("a\\r\\nb\\x0cc\\u2028d\\r\\r\\ne")
['a', 'b\\x0cc\\u2028d\\r', 'e']
>>> printable("name\\x1b[2J")
'name\\\\x1b[2J'
>>> control_character("ok\\tfine"), control_character("bad\\x85")
(None, 'U+0085')
"""

from __future__ import annotations

import errno
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, NamedTuple, Sequence

from kbdraughts.errors import KbdraughtsError

__all__ = [
    "editor_lines", "decode_text", "NotUtf8Error", "NOT_UTF8", "control_character", "printable",
    "write_atomic", "TextForm", "read_form", "SpecialFileError", "special_kind",
    "stale_temporaries", "folder_lock", "write_atomic_all", "read_bounded", "check_readable",
    "MAX_KEPT_BYTES", "write_whole",
]

#: Control characters (Unicode Cc, but the tab), the line and paragraph separators, and the
#: bytes of a file that were not text (kept as lone surrogates: a terminal cannot show them).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\udc80-\udcff]")


def editor_lines(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them: split at ``\\n``, one trailing ``\\r``
    dropped. A final ``\\n`` does not start another line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


#: What a file that is not UTF-8 earns, after ``path:line: error: ``.
NOT_UTF8 = "not UTF-8 text: save the file as UTF-8"


class NotUtf8Error(KbdraughtsError, ValueError):
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
_CONTROL_IN_LINES = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\udc80-\udcff]|\r(?!\n)")


def printable_lines(text: str) -> str:
    r"""``text`` for a terminal: its lines and tabs kept, every other control character (an
    escape sequence's ````, a bare ``
``, a backspace) written as an escape.

    >>> printable_lines("[White \"\x1b[2J\"]\r\n1. c3-d4\tx\b")
    '[White "\\x1b[2J"]\r\n1. c3-d4\tx\\x08'
    """
    return _CONTROL_IN_LINES.sub(_escape, text)


class TextForm(NamedTuple):
    """How a text file's bytes were text: its encoding, its byte-order mark and the line end
    most of its lines had (text written anew uses it; the file's own lines keep theirs).

    >>> form = TextForm("cp1251", b"", "\\r\\n")
    >>> form.encode("Ход\\udc98")  # a byte cp1251 has no letter for, kept as it came
    b'\\xd5\\xee\\xe4\\x98'
    """

    encoding: str = "utf-8"
    bom: bytes = b""
    newline: str = "\n"

    def encode(self, text: str) -> bytes:
        """``text`` as this form's bytes; in UTF-8 (the stray bytes still kept) when the
        encoding has no letter for a character added since (a coach's note in Latin-1)."""
        try:
            return self.bom + text.encode(self.encoding, "surrogateescape")
        except UnicodeEncodeError:
            bom = b"\xef\xbb\xbf" if self.bom else b""
            return bom + text.encode("utf-8", "surrogateescape")


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def read_form(data: bytes, path: str | os.PathLike) -> tuple[str, TextForm, list[str]]:
    """The text of a file's bytes, their form, and warnings naming the file. UTF-8 (or UTF-16
    with its mark) as it is; UTF-8 with a few stray bytes keeps them (lone surrogates,
    written back as they were); else Windows-1251 when its bytes above ASCII come in runs
    (Cyrillic words), else Latin-1, and written back so.

    >>> text, form, warnings = read_form("Ход\\r\\n".encode() + b"\\xe9\\n", "g")
    >>> text, form.encoding, form.newline, warnings
    ('Ход\\r\\n\\udce9\\n', 'utf-8', '\\n', ['g:2: 1 byte is not UTF-8 text; kept as it was'])
    """
    bom, encoding = next(((b, e) for b, e in _BOMS if data.startswith(b)), (b"", "utf-8"))
    warnings: list[str] = []
    if not bom and (wide := _utf16_without_bom(data)) is not None:
        try:
            text = data.decode(wide)
        except UnicodeDecodeError:
            pass
        else:
            warnings.append(f"{path}: UTF-16 text without a byte-order mark; read as such, "
                            "and written back so")
            return text, TextForm(wide, b"", _newline(text)), warnings
    try:
        text = data[len(bom):].decode(encoding)
    except UnicodeDecodeError as e:
        if encoding != "utf-8":  # a UTF-16 mark on something else: read it as bytes
            bom, encoding = b"", "utf-8"
        encoding, warning = _guess(data[len(bom):], e.start, path)
        text = data[len(bom):].decode(encoding, "surrogateescape")
        warnings.append(warning)
    return text, TextForm(encoding, bom, _newline(text)), warnings


def _newline(text: str) -> str:
    """The line end most of ``text``'s lines have, for the lines written anew."""
    lf = text.count("\n")
    if lf:
        return "\r\n" if text.count("\r\n") * 2 > lf else "\n"
    return "\r" if "\r" in text else "\n"  # a CR alone (old Mac files), or no line at all


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when ``data`` looks like UTF-16 text of mostly ASCII
    letters without its mark (a zero byte beside three in four others, on one side, and
    almost none on the other), else None: UTF-8 text has no zero bytes."""
    head = data[:4096]
    if len(head) < 4 or len(head) % 2 or head.count(0) * 3 < len(head):
        return None
    pairs = len(head) // 2
    for encoding, zero in (("utf-16-le", 1), ("utf-16-be", 0)):
        if head[zero::2].count(0) * 4 >= pairs * 3 and head[1 - zero::2].count(0) * 10 < pairs:
            return encoding
    return None


def _guess(data: bytes, first: int, path: str | os.PathLike) -> tuple[str, str]:
    """The encoding of bytes that are not all UTF-8, and the warning that says so: UTF-8
    still when its letters outnumber the stray bytes."""
    text = data.decode("utf-8", "surrogateescape")
    stray = sum(1 for c in text if "\udc80" <= c <= "\udcff")
    if sum(1 for c in text if c > "\x7f") > 2 * stray:
        line = data[:first].count(b"\n") + 1
        many = f"{stray} bytes are" if stray > 1 else "1 byte is"
        kept = "they were" if stray > 1 else "it was"
        return "utf-8", f"{path}:{line}: {many} not UTF-8 text; kept as {kept}"
    high = [i for i, b in enumerate(data) if b >= 0x80]
    paired = sum(1 for i in high if (i and data[i - 1] >= 0x80)
                 or (i + 1 < len(data) and data[i + 1] >= 0x80))
    name, encoding = (("Windows-1251 (Cyrillic)", "cp1251") if paired * 2 > len(high)
                      else ("Latin-1", "latin-1"))
    return encoding, f"{path}: not UTF-8 text; read as {name}, and written back so"


class SpecialFileError(KbdraughtsError, OSError):
    """A FIFO, a device or a socket where a file was to be written whole: refused, never
    replaced by a regular file."""

    def __init__(self, path: str | os.PathLike, kind: str):
        super().__init__(errno.EINVAL, f"it is {kind}, not a regular file: not replaced",
                         str(path))


def special_kind(path: str | os.PathLike) -> str | None:
    """What ``path`` is when it is neither a regular file nor a folder (``a FIFO``, ``a
    device``, ``a socket``), a link followed; None for those and for no file at all."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return None


def write_atomic(path: str | os.PathLike, text: str, append: bool = False,
                 form: TextForm | None = None) -> None:
    """Write ``text`` to ``path`` in ``form`` (default UTF-8): a temporary file beside it,
    then renamed over it, so the file is always the old one or the new one, whole.
    ``append`` adds ``text`` to the end instead (whole or not at all, :func:`write_whole`; not
    synced: cheap enough for a game at a time): what was there is never rewritten. A symbolic
    link is followed, the file it points to replaced; the file's permissions are kept. A FIFO or
    a device is refused (SpecialFileError): replacing it would break what reads it, or the
    system."""
    path = Path(path)
    form = form or TextForm()
    data = form.encode(text)
    if append:
        kind = special_kind(path)
        if kind is not None:
            raise SpecialFileError(path, kind)
        with path.open("ab", buffering=0) as f:  # a game added whole or not at all
            write_whole(f, data[len(form.bom):] if f.seek(0, os.SEEK_END) else data)
        return
    write_atomic_all([(path, text, form)])


def write_atomic_all(files: Sequence[tuple[str | os.PathLike, str, TextForm | None]]) -> None:
    """Write several files as one: every temporary file written and synced first, then each
    renamed over its file, so a full disk or a kill while writing leaves all the old files
    (a pair that belongs together, heuristic.txt and shapes.txt, never half new). Each file
    as :func:`write_atomic` writes it."""
    plan = []
    for path, text, form in files:
        path = Path(path)
        if path.is_symlink():
            path = path.resolve()
        kind = special_kind(path)
        if kind is not None:
            raise SpecialFileError(path, kind)
        plan.append((path, (form or TextForm()).encode(text)))
    temporaries = [path.with_name(f".{path.name}.{os.getpid()}.tmp") for path, _ in plan]
    try:
        for (path, data), tmp in zip(plan, temporaries):
            with tmp.open("wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if path.exists():
                os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        for (path, _), tmp in zip(plan, temporaries):
            os.replace(tmp, path)
    finally:
        for tmp in temporaries:
            tmp.unlink(missing_ok=True)


#: The largest file a person keeps that is read whole (a heuristic file, a shapes file): far
#: above any real one (the shipped shapes.txt is 241 KB), far below what would exhaust memory.
MAX_KEPT_BYTES = 16 * 2**20


def write_whole(f: BinaryIO, data: bytes) -> None:
    """Append ``data`` to ``f`` (unbuffered, opened to append) whole or not at all: when a
    write fails part way (a full disk, a file-size limit) a regular file is cut back to
    where it was, so it never ends in half a record, and the OSError goes on."""
    regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    start = f.seek(0, os.SEEK_END) if regular else 0
    try:
        view = memoryview(data)
        while view:
            written = f.write(view)
            if not written:  # nothing taken, and no error said: the disk is full
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = view[written:]
    except OSError:
        if regular:
            f.truncate(start)
        raise


def check_readable(path: str | os.PathLike, doing: str = "read", fifo: bool = False) -> None:
    """OSError (``EINVAL``, "it is a device, not a regular file: not read") when ``path`` is
    a FIFO, a device or a socket: ``/dev/zero`` would be read without end and a FIFO block.
    ``doing``: what is refused (``read``, ``written``); ``fifo``: a FIFO is let through (a
    reader that streams with a cap on each line: ``tune fit <(zcat games.txt.gz)``)."""
    kind = special_kind(path)
    if kind is not None and not (fifo and kind == "a FIFO"):
        raise OSError(errno.EINVAL, f"it is {kind}, not a regular file: not {doing}", str(path))


def read_bounded(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the file at ``path``, or OSError: a FIFO, a device or a socket refused
    (:func:`check_readable`), a file of more than ``limit`` bytes refused (``EFBIG``) with
    at most ``limit + 1`` bytes read."""
    check_readable(path)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {_size(limit)}: not read", str(path))
    return data


def _size(n: int) -> str:
    """A byte count in words: ``16 MB``, ``64 KB``."""
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 2**10} KB" if n >= 2**10 else f"{n} bytes"


@contextmanager
def folder_lock(directory: str | os.PathLike) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (``flock`` on the folder itself: no lock file
    to leave behind) while a file in it is read, changed and written: a second process (or
    thread) waits its turn, so neither writes over what the other added. Where folders
    cannot be locked (no fcntl, a file system without locks) nothing is held."""
    try:
        import fcntl
        fd = os.open(directory, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # the lock goes with the descriptor


_TEMPORARY = re.compile(r"\..+\.(\d{1,9})\.tmp")


def stale_temporaries(directory: str | os.PathLike) -> list[Path]:
    """The temporary files of :func:`write_atomic` in ``directory`` whose writer is dead
    (``kill -9`` mid-write): a process that no longer runs, checked by its pid.

    >>> stale_temporaries("/nonexistent")
    []
    """
    found = []
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    for name in names:
        m = _TEMPORARY.fullmatch(name)
        if m is not None and not _running(int(m.group(1))):
            found.append(Path(directory) / name)
    return found


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user's counts)."""
    if pid == os.getpid() or pid <= 0:
        return pid > 0
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True
