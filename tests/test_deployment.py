"""What the container files run and keep, checked against the code (no Docker engine here).

The commands themselves are tested as processes elsewhere: ``python -m bot`` and
``python -m bot.process.health`` in tests/bot/test_shutdown.py, start-up refusals in
tests/bot/test_startup_database.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

import pytest

from bot.process.settings import Settings

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
    assert exec_form(found["HEALTHCHECK"][-1]) == ["python", "-m", "bot.process.health"]
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
    assert compose_database({}).startswith(f"{volume}/")
    assert re.search(r"stop_grace_period: (\d+)s", text)


def compose_database(dotenv: dict[str, str]) -> str:
    """What compose sets SHANGHAI_DATABASE to for a ``.env`` holding ``dotenv``: its
    ``${NAME:-default}`` interpolation (nested defaults included), evaluated here."""
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    match = re.search(r"^\s*SHANGHAI_DATABASE: (.+)$", text, re.MULTILINE)
    assert match is not None
    value = match[1].strip()
    pattern = re.compile(r"\$\{([A-Z_]+):-([^${}]*)\}")
    while "${" in value:
        value, count = pattern.subn(lambda m: dotenv.get(m[1]) or m[2], value)
        assert count, f"cannot evaluate {value!r}"
    return value


def test_compose_honours_the_database_named_in_env() -> None:
    url = "postgresql://shanghai:secret@db:5432/shanghai"
    assert compose_database({"DATABASE_URL": url}) == url
    assert compose_database({"SHANGHAI_DATABASE": url, "DATABASE_URL": "postgresql://x"}) == url
    # .env.example's own value, relative: under WORKDIR, so on the volume.
    example = compose_database({"SHANGHAI_DATABASE": "var/shanghai.sqlite3"})
    workdir = PurePosixPath(instructions()["WORKDIR"][-1])
    volume = PurePosixPath(exec_form(instructions()["VOLUME"][-1])[0])
    assert (workdir / example).parent == volume


def test_compose_restarts_the_bot_and_rotates_its_log() -> None:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^\s*restart: unless-stopped$", text, re.MULTILINE)
    assert re.search(r"^\s*driver: json-file$", text, re.MULTILINE)
    assert re.search(r'^\s*max-size: "\d+m"$', text, re.MULTILINE)
    assert re.search(r'^\s*max-file: "\d+"$', text, re.MULTILINE)


def test_dockerfile_installs_the_dependencies_before_copying_the_code() -> None:
    """A code change must not reinstall every dependency: the layer that downloads them comes
    before the first COPY of a package, and copies only the project's metadata."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    steps = [
        " ".join(line.split())
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    first_code = next(i for i, s in enumerate(steps) if re.match(r"COPY (engine|data|bot) ", s))
    install = next(i for i, s in enumerate(steps) if s.startswith("RUN") and "pip install" in s)
    assert install < first_code
    copied_before = [s for s in steps[:install] if s.startswith("COPY")]
    assert copied_before == ["COPY pyproject.toml constraints.txt README.md ./"]
    after = [s for s in steps[first_code:] if s.startswith("RUN") and "pip install" in s]
    assert after and all("--no-deps" in s for s in after)


def procfile() -> dict[str, str]:
    """The Procfile's processes: name to command, as a buildpack platform reads them."""
    text = (ROOT / "Procfile").read_text(encoding="utf-8")
    found = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, command = line.partition(":")
            found[name.strip()] = command.strip()
    return found


def test_procfile_runs_the_entry_point_after_a_check() -> None:
    assert procfile() == {"release": "python -m bot check", "worker": "python -m bot"}


@pytest.mark.parametrize("process", ["release", "worker"])
def test_each_procfile_command_answers_its_help(process: str) -> None:
    """The command as the platform runs it, with ``--help``: it exists and starts nothing."""
    command = procfile()[process].split()
    assert command[0] == "python"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    done = subprocess.run(
        [sys.executable, *command[1:], "--help"],
        cwd=ROOT,
        env=clean | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: shanghai")


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            pins[re.sub(r"[-_.]+", "-", name.strip().lower())] = version.strip()
    return pins


def test_a_buildpack_installs_the_pinned_bot_with_postgresql() -> None:
    """requirements.txt read as pip reads it on a buildpack: the constraints file, and the
    project itself with the PostgreSQL extra; every dependency that brings is pinned."""
    lines = [
        line.strip()
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines == ["-c constraints.txt", ".[postgres]"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = _pins()
    for requirement in [*project["dependencies"], *project["optional-dependencies"]["postgres"]]:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[; ]", requirement)[0].lower())
        assert name in pins, f"{requirement} is not pinned in constraints.txt"
    # The Python the platform installs: the one the image and CI use.
    python = (ROOT / ".python-version").read_text(encoding="utf-8").strip()
    assert python == "3.11" and project["requires-python"] == ">=3.11"
    assert instructions()["FROM"][0].startswith(f"python:{python}")


def test_the_image_can_serve_the_metrics_and_compose_scrapes_them() -> None:
    """SHANGHAI_METRICS_PORT needs prometheus-client: the image installs the ``metrics`` extra,
    and compose's Prometheus scrapes the bot's service at the port compose gives it."""
    install = next(r for r in instructions()["RUN"] if "pip install" in r)
    extras = re.search(r"'\.\[([a-z,]+)\]'", install)
    assert extras is not None and {"metrics", "postgres"} <= set(extras[1].split(","))
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    port = re.search(r"^\s*SHANGHAI_METRICS_PORT: (\d+)\b", compose, re.MULTILINE)
    assert port is not None
    assert re.search(r"^\s*SHANGHAI_METRICS_ADDRESS: 0\.0\.0\.0$", compose, re.MULTILINE)
    bot_service = compose.split("\n  prometheus:")[0]
    assert "ports:" not in bot_service  # the metrics stay on the compose network
    assert "./prometheus.yml:/etc/prometheus/prometheus.yml" in compose
    scrape = (ROOT / "prometheus.yml").read_text(encoding="utf-8")
    assert f'targets: ["bot:{port[1]}"]' in scrape
