"""What the container files run and keep, checked against the code (no Docker engine here).

The commands themselves are tested as processes elsewhere: ``python -m bot`` and
``python -m bot.health`` in tests/bot/test_shutdown.py, start-up refusals in
tests/bot/test_startup_database.py.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path, PurePosixPath

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def instructions() -> dict[str, list[str]]:
    """Dockerfile instructions by keyword, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.setdefault(keyword.upper(), []).append(" ".join(rest.split()))
    return found


def exec_form(argument: str) -> list[str]:
    command = json.loads(argument[argument.index("[") :])
    assert isinstance(command, list)
    return command


def test_dockerfile_runs_the_entry_point_as_a_plain_user_with_its_data_on_a_volume() -> None:
    found = instructions()
    assert found["FROM"][0].startswith("python:3.11") and "slim" in found["FROM"][0]
    assert exec_form(found["CMD"][-1]) == ["python", "-m", "bot"]  # exec form: python gets SIGTERM
    assert found["STOPSIGNAL"] == ["SIGTERM"]
    assert exec_form(found["HEALTHCHECK"][-1]) == ["python", "-m", "bot.health"]
    assert found["USER"][-1] not in ("root", "0")
    workdir = PurePosixPath(found["WORKDIR"][-1])
    volume = PurePosixPath(exec_form(found["VOLUME"][-1])[0])
    defaults = Settings(discord_token="x")  # type: ignore[arg-type]
    for default in (defaults.database, defaults.heartbeat):
        assert (workdir / default).parent == volume, default


def test_dockerfile_copies_every_package_and_installs_with_the_constraints() -> None:
    found = instructions()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {
        p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    copied = {c.split()[0] for c in found["COPY"]}
    assert packages <= copied
    assert "constraints.txt" in " ".join(found["COPY"]) and (ROOT / "constraints.txt").is_file()
    assert any("--constraint constraints.txt" in run for run in found["RUN"])


def test_compose_keeps_the_database_on_the_named_volume() -> None:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    volume = exec_form(instructions()["VOLUME"][-1])[0]
    assert re.search(rf"^\s*- (\S+):{re.escape(volume)}\s*$", text, re.MULTILINE)
    assert re.search(rf"SHANGHAI_DATABASE: {re.escape(volume)}/", text)
    assert re.search(r"stop_grace_period: (\d+)s", text)


def test_procfile_runs_the_entry_point() -> None:
    lines = (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if not line.startswith("#")] == ["worker: python -m bot"]
