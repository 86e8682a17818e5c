"""pyproject's requirements, the tested pins (constraints.txt) and the floors
(constraints-lowest.txt) agree: a requirement added without a tested pin, or a floor moved
without the CI step that proves it, fails here."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def requirements(*, extras: bool) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    if extras:
        for group in project.get("optional-dependencies", {}).values():
            found += [Requirement(r) for r in group]
    return found


def pins(name: str) -> dict[str, Version]:
    pinned: dict[str, Version] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            package, _, version = line.partition("==")
            assert version, f"{name}: {line!r} is not name==version"
            pinned[canonicalize_name(package)] = Version(version)
    return pinned


def test_every_requirement_has_a_tested_pin_within_its_bounds() -> None:
    pinned = pins("constraints.txt")
    for requirement in requirements(extras=True):
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"constraints.txt has no pin for {requirement.name}"
        assert requirement.specifier.contains(pinned[name]), (requirement, pinned[name])


def test_lowest_pins_are_exactly_the_floors() -> None:
    lowest = pins("constraints-lowest.txt")
    floors = {}
    for requirement in requirements(extras=False):
        minimum = [s.version for s in requirement.specifier if s.operator == ">="]
        assert minimum, f"{requirement} has no lower bound"
        floors[canonicalize_name(requirement.name)] = Version(minimum[0])
    assert lowest == floors
