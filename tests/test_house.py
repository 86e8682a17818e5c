"""The product speaks of the code, never of its history: no issue numbers, no sessions, and no
citations of a rules numbering the repository does not hold.

- No ``issue 16``, ``issues 3 and 4``, ``Issue #28`` anywhere in a product file (comments,
  docstrings, strings alike): why a line is there must stand without the tracker.
- No work-history phrasing about sessions: an ordinal or ``this``/``last``/``previous``/
  ``earlier``/``next`` before ``session``, or ``session`` and a number. A session of a program
  (a database session, the try session) is not history and stays allowed.
- A rule is cited by the heading of ``docs/RULES.md`` that explains it ("docs/RULES.md,
  Buying"), not by a number like ``S31`` or ``S26-S33``, which names a specification this
  repository does not ship. Such a number is allowed only if ``docs/RULES.md`` has a heading
  beginning with it.

Each failure lists the offending ``file:line`` and the line, so the fix is a list to work down.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "data", "bot")

#: The space between two words of a mention: it may run over a line break, into the next line
#: of a comment (``issue`` at one line's end, ``# 19`` on the next).
GAP = r"\s+(?:#\s*)?"
ISSUE = re.compile(rf"\bissues?{GAP}#?\d+", re.IGNORECASE)
ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
SESSION = re.compile(
    rf"\b(?:{ORDINALS}|this|last|previous|earlier|next){GAP}session\b|\bsession{GAP}#?\d+\b",
    re.IGNORECASE,
)
CITATION = re.compile(r"\bS\d+[a-z]?(?:\.\d+)*\b")


def product_files() -> list[Path]:
    files = sorted(path for package in PRODUCT for path in (ROOT / package).rglob("*.py"))
    return files + sorted(ROOT.glob("*.py"))


def rules_sections() -> set[str]:
    """The section numbers ``docs/RULES.md``'s headings begin with (``## S26. Buying``)."""
    headings = (
        line.lstrip("#").strip()
        for line in (ROOT / "docs" / "RULES.md").read_text("utf-8").splitlines()
        if line.startswith("#")
    )
    return {match.group() for heading in headings if (match := CITATION.match(heading))}


def mentions(text: str, sections: set[str]) -> Iterator[tuple[int, str]]:
    """(line number, what) for each mention of an issue, a session or an unknown section.

    The whole text is searched at once, so a mention broken over two lines (a docstring's
    ``(issue`` and ``23.3)``, or a comment's ``issue`` and ``# 19``) is found; it is reported at
    the line where it begins, its words joined by single spaces.
    """
    found = [match for pattern in (ISSUE, SESSION) for match in pattern.finditer(text)]
    found += [match for match in CITATION.finditer(text) if match.group() not in sections]
    for match in sorted(found, key=lambda match: match.start()):
        yield text.count("\n", 0, match.start()) + 1, " ".join(match.group().split())


def test_product_code_names_no_issue_no_session_and_no_unknown_rule_section() -> None:
    sections = rules_sections()
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {what}"
        for path in product_files()
        for number, what in mentions(path.read_text("utf-8"), sections)
    ]
    assert not offenders, f"{len(offenders)} mentions:\n" + "\n".join(offenders)


def test_the_finder_finds_each_kind_and_spares_the_programs_sessions() -> None:
    text = "\n".join(
        [
            "# the limit (issue 16.9) keeps memory small",
            '"""Since Issue #28 the expert searches."""',
            "# see issues 3 and 4",
            "# until the third session this was a list",
            "# the buy is refused (S31, S26-S33); S37a too",
            "# a database session, the try session, another session's row lock",
            "# S26 is a section here",
            "# docs/RULES.md, Buying; SELECT S; S3Client; version 3",
            "# the lay-off was split (issue",
            "# 19) into two menus",
            '"""Asking for it took two menus (issue',
            '23.3), so the hand declares it."""',
            "# until the fourth",
            "#   session it was a list",
        ]
    )
    found = list(mentions(text, {"S26"}))
    assert found == [
        (1, "issue 16"),
        (2, "Issue #28"),
        (3, "issues 3"),
        (4, "third session"),
        (5, "S31"),
        (5, "S33"),
        (5, "S37a"),
        (9, "issue # 19"),
        (11, "issue 23"),
        (13, "fourth # session"),
    ]


def test_the_rules_headings_are_read() -> None:
    """The allowance can work: a heading that began with a number would be found."""
    assert CITATION.match("S26. Buying") is not None
    assert "S26" not in rules_sections()  # docs/RULES.md's headings are plain words today
