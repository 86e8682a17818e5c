"""Metrics asked for but impossible to serve: ``check`` and ``run`` say so in one line.

A container built without prometheus-client, or an address this host cannot listen on, used to
pass ``check`` and then end ``run`` in a traceback (a restart loop under compose).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from .test_cli import ROOT, TOKEN, shanghai

#: prometheus_client made unimportable, then the command line.
WITHOUT_PROMETHEUS = (
    "import sys; sys.modules['prometheus_client'] = None; "
    "from bot.process.cli import main; sys.exit(main(sys.argv[1:]))"
)


def without_prometheus(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_PROMETHEUS, *args],
        cwd=cwd,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_fails_when_prometheus_client_is_missing(tmp_path: Path) -> None:
    result = without_prometheus(
        tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_METRICS_PORT="9108"
    )
    assert result.returncode == 2, result.stdout
    marked = [line for line in result.stdout.splitlines() if line.startswith("! ")]
    assert len(marked) == 1 and marked[0].startswith("! metrics:")
    assert "prometheus-client" in marked[0] and "SHANGHAI_METRICS_PORT" in marked[0]


def test_run_says_the_same_in_one_line_when_prometheus_client_is_missing(tmp_path: Path) -> None:
    result = without_prometheus(tmp_path, "run", DISCORD_TOKEN=TOKEN, SHANGHAI_METRICS_PORT="9108")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "prometheus-client" in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "var").exists()  # refused before the database was opened


def test_a_port_in_use_fails_check_and_run_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        checked = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_METRICS_PORT=port)
        ran = shanghai(tmp_path, DISCORD_TOKEN=TOKEN, SHANGHAI_METRICS_PORT=port)
    assert checked.returncode == 2
    assert f"! metrics: cannot listen on 127.0.0.1:{port}" in checked.stdout
    assert ran.returncode == 2
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot listen on 127.0.0.1:{port}" in lines[0], ran.stderr


def test_an_address_not_on_this_host_fails_check(tmp_path: Path) -> None:
    result = shanghai(
        tmp_path,
        "check",
        DISCORD_TOKEN=TOKEN,
        SHANGHAI_METRICS_PORT="9108",
        SHANGHAI_METRICS_ADDRESS="192.0.2.1",  # TEST-NET-1: never this machine's
    )
    assert result.returncode == 2
    assert "! metrics: cannot listen on 192.0.2.1:9108" in result.stdout


def test_check_names_the_address_it_would_serve(tmp_path: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    result = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_METRICS_PORT=port)
    assert f"  metrics: http://127.0.0.1:{port}/metrics" in result.stdout
