"""The version this bot runs: ``shanghai --version``, the metrics' build info.

The installed package's metadata says it; a source tree run without installing (``PYTHONPATH``)
has none, so pyproject.toml beside the packages speaks instead. Only the standard library is
imported: ``--version`` answers before discord.py or pydantic load.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

#: The distribution name in pyproject.toml.
DISTRIBUTION = "shanghai"

_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def version() -> str:
    """The version, or ``"unknown"`` when neither the metadata nor pyproject.toml says."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return pyproject_version() or "unknown"


def pyproject_version(path: Path = _PYPROJECT) -> str | None:
    """The ``[project]`` version of ``path``, if it is this project's pyproject.toml."""
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    if project.get("name") != DISTRIBUTION or not isinstance(project.get("version"), str):
        return None
    return str(project["version"])
