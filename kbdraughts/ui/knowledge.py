"""The knowledge base as the console tells of it: the blocks of the rule files that were
skipped as faulty, named ``file:line`` in one line when the game starts and whole in ``help kb``.

The faults are the rule files' parse errors, the same the AI's knowledge base skips when it
loads (``kb.knowledge.read_combos``): reading them takes the parser alone (some 25 ms for the
shipped files), not pyDatalog, so the first prompt does not wait for the knowledge base.

>>> from kbdraughts.kb.rules.rule import Diagnostic
>>> start_note([Diagnostic("/home/me/combos/mine.txt", 3, "error", "the board has 1 row")])
"Note: the knowledge base skipped the blocks with errors (mine.txt:3); the rest loaded. 'help kb' says what is wrong."
"""  # noqa: E501 (the doctest's output is one line)

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from kbdraughts.ui.registry import help_topic

if TYPE_CHECKING:  # the rules' modules load when a game starts, not with the commands
    from kbdraughts.kb.rules.rule import Diagnostic

#: Places named in the start line at most; ``help kb`` names them all.
NAMED = 3
#: How the one error of :func:`faulty_blocks` starts when the parser fails outright: then
#: nothing loaded (the AI's own load fails alike and it plays without the knowledge base).
UNREADABLE = "cannot read the rule files"


def faulty_blocks() -> list[Diagnostic]:
    """The errors of the rule files the AI loads (the shipped ones and the person's own), each
    a block the knowledge base skips; a parser that fails outright is one error too."""
    from kbdraughts.kb.knowledge import default_paths, read_combos
    from kbdraughts.kb.rules.rule import Diagnostic

    try:
        return [d for d in read_combos()[3] if d.level == "error"]
    except Exception as e:  # the knowledge base's own fault: said, and the game goes on
        where = str(default_paths()[-1])
        return [Diagnostic(where, 0, "error", f"{UNREADABLE}: {type(e).__name__}: {e}")]


def _unreadable(errors: Sequence[Diagnostic]) -> bool:
    return len(errors) == 1 and errors[0].line == 0 and errors[0].message.startswith(UNREADABLE)


def start_note(errors: Sequence[Diagnostic]) -> str:
    """One line for the start of a game naming the skipped blocks (``file:line``; the file's
    name alone, ``help kb`` gives the path); "" when none was."""
    if not errors:
        return ""
    if _unreadable(errors):  # nothing loaded: "the rest loaded" would be untrue
        why = errors[0].message.removeprefix(UNREADABLE).lstrip(": ")
        return (f"Note: the rule files cannot be read ({why}); the AI plays without its "
                "knowledge base. 'help kb' says more.")
    places = [f"{Path(d.path).name}:{d.line}" if d.line else Path(d.path).name
              for d in errors[:NAMED]]
    more = f" and {len(errors) - NAMED} more" if len(errors) > NAMED else ""
    return (f"Note: the knowledge base skipped the blocks with errors ({', '.join(places)}"
            f"{more}); the rest loaded. 'help kb' says what is wrong.")


@help_topic("kb", "the knowledge base: its files, and the blocks skipped as faulty")
def kb_topic() -> list[str]:
    """``help kb``, as the rule files are now."""
    return kb_help(faulty_blocks())


def kb_help(errors: Sequence[Diagnostic]) -> list[str]:
    """The lines of ``help kb``: where the rules come from, and each skipped block whole."""
    from kbdraughts.kb.knowledge import default_paths
    from kbdraughts.resources import data_dir

    lines = ["The knowledge base: the rule files of "
             + " and ".join(str(p) for p in default_paths())
             + f" (your own rules go in {data_dir() / 'combos'}; 'teach MOVE' writes there)."]
    if not errors:
        lines.append("No block was skipped: every rule file loaded whole.")
        return lines
    if _unreadable(errors):
        lines.append("Nothing of it loaded: the AI plays without its knowledge base.")
        lines.append(f"  {errors[0]}")
        return lines
    n = len(errors)
    lines.append(f"Skipped, {n} error{'s' if n != 1 else ''} (the rest of each file loaded; fix "
                 "them and start again, 'kbdraughts rules check' checks them):")
    lines += [f"  {d}" for d in errors]  # Diagnostic's text is one line, no escapes
    return lines
