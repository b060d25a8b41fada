"""The package's one error base (issue 37): every exception it defines derives from
``KbdraughtsError``, and a caller catches any of its faults by the base."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import kbdraughts
from kbdraughts.errors import KbdraughtsError

#: The domain errors that were ValueErrors before the base: their callers catch them so.
VALUE_ERRORS = {
    "MoveError", "MoveSyntaxError", "IllegalMoveError", "AmbiguousMoveError", "TimeControlError",
    "PlayerSpecError", "StartError", "TableError", "FitError", "DataError", "BodyError",
    "CompileError", "RuleFileError", "NotUtf8Error", "PdnError", "StartFileError", "HubError",
    "HeuristicFileError", "FenError",
}
OS_ERRORS = {"NotAFile", "SpecialFileError"}


def package_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class a module of the package defines (at its top or in a class), by
    ``module.Name``: found by importing each module, so none is missed by its spelling."""
    found: dict[str, type[BaseException]] = {}

    def visit(owner: object, module: str) -> None:
        for obj in vars(owner).values():
            if inspect.isclass(obj) and obj.__module__ == module:
                if issubclass(obj, BaseException):
                    found[f"{module}.{obj.__qualname__}"] = obj
                visit(obj, module)

    for info in pkgutil.walk_packages(kbdraughts.__path__, "kbdraughts."):
        if info.name.endswith("__main__"):  # runs the console when imported
            continue
        module = importlib.import_module(info.name)
        visit(module, module.__name__)
    return found


def test_every_exception_the_package_defines_derives_from_the_base():
    found = package_exceptions()
    names = {cls.__name__ for cls in found.values()}
    # The walk sees them all (a walk that found nothing would pass the check below).
    assert VALUE_ERRORS | OS_ERRORS | {"Timeout", "QuitGame", "PlayerFault"} <= names, names
    outside = sorted(name for name, cls in found.items() if not issubclass(cls, KbdraughtsError))
    assert outside == [], f"not under kbdraughts.errors.KbdraughtsError: {outside}"


def test_the_domain_errors_keep_the_builtin_their_callers_catch():
    found = {cls.__name__: cls for cls in package_exceptions().values()}
    assert [n for n in sorted(VALUE_ERRORS) if not issubclass(found[n], ValueError)] == []
    assert [n for n in sorted(OS_ERRORS) if not issubclass(found[n], OSError)] == []
    # The signals are no ValueError: an ``except ValueError`` around a parse lets them by.
    for signal in ("Timeout", "OutOfNodes", "OutOfSteps", "QuitGame", "TimeUp", "GameOpen"):
        assert not issubclass(found[signal], ValueError), signal


def test_the_base_is_a_plain_exception_at_the_core_floor():
    assert KbdraughtsError.__mro__[1:] == (Exception, BaseException, object)
    source = Path(kbdraughts.errors.__file__).read_text(encoding="utf-8")
    assert "import kbdraughts" not in source and "from kbdraughts" not in source.split(">>>")[0]


def _bad_fen() -> None:
    from kbdraughts.fen import parse_fen
    parse_fen("W:Wz9")


def _bad_move() -> None:
    from kbdraughts.board import START
    from kbdraughts.notation import parse_move
    parse_move(START, "a1-h8")


def _bad_spec() -> None:
    from kbdraughts.ai.spec import PlayerSpec
    PlayerSpec.parse("kb:9")


def _bad_pdn() -> None:
    from kbdraughts.pdn import parse_pdn
    parse_pdn('[Event "x"]\n1. c3-d4 a1-b2 *\n')  # a1-b2 is White's piece on Black's move


def _bad_hub_line() -> None:
    from kbdraughts.match.hub_params import Params
    Params().set("level", "9")


def _bad_rule_file(tmp_path: Path) -> None:
    from kbdraughts.kb.knowledge import load_knowledge_base
    load_knowledge_base([tmp_path / "missing.txt"])


@pytest.mark.parametrize("fault", [_bad_fen, _bad_move, _bad_spec, _bad_pdn, _bad_hub_line,
                                   _bad_rule_file])
def test_a_caller_catches_any_domain_error_by_the_base(fault, tmp_path: Path):
    args = (tmp_path,) if "tmp_path" in inspect.signature(fault).parameters else ()
    with pytest.raises(KbdraughtsError) as caught:
        fault(*args)
    assert isinstance(caught.value, ValueError) and str(caught.value)
