"""``shanghai --version``: the installed package's version, else pyproject's."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from bot.process import version as version_module
from bot.process.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"shanghai {metadata.version('shanghai')}"


def test_without_metadata_pyproject_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(version_module.metadata, "version", missing)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert version_module.version() == project["version"] == "0.2.0"


def test_a_foreign_or_missing_pyproject_says_nothing(tmp_path: Path) -> None:
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "other"\nversion = "9.9"\n', encoding="utf-8")
    assert version_module.pyproject_version(other) is None
    assert version_module.pyproject_version(tmp_path / "absent.toml") is None
