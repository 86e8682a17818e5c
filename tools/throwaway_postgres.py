"""A throwaway PostgreSQL cluster on a free loopback port, for the tests and the benchmark.

``ThrowawayCluster.start()`` runs ``initdb`` into a temporary folder and ``pg_ctl start`` on
127.0.0.1 with a free port, from the server binaries Debian's ``postgresql`` package installs
(found by ``pg_config --bindir``, or the newest ``/usr/lib/postgresql/*/bin``). PostgreSQL
refuses to run as root, so as root both run through ``runuser -u postgres``. ``stop()`` stops
the server and deletes the folder; a small watchdog process does the same if this process
dies without calling it (a killed test run leaves no server behind). Never point production
at it: it trusts every local connection, and with ``durable=False`` (the tests' choice) it
does not fsync.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: Set to 1 (CI does) to make a missing PostgreSQL a failure instead of a skipped test.
REQUIRE_ENV = "SHANGHAI_REQUIRE_POSTGRES"
#: Optional: the folder holding initdb and pg_ctl, when they are somewhere unusual (only it is
#: then searched).
BINDIR_ENV = "SHANGHAI_PG_BINDIR"


class NoPostgres(RuntimeError):
    """No PostgreSQL server binaries were found on this machine."""


def find_bindir() -> Path | None:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres``, or ``None`` if there is none."""
    candidates: list[Path] = []
    if os.environ.get(BINDIR_ENV):  # an explicit choice is the only candidate
        folder = Path(os.environ[BINDIR_ENV])
        return folder if (folder / "initdb").is_file() else None
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True
            )
            candidates.append(Path(out.stdout.strip()))

    def version(path: Path) -> tuple[int, ...]:
        digits = path.parent.name.split(".")
        return tuple(int(d) for d in digits if d.isdigit())

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres", "psql")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ThrowawayCluster:
    """A running server; ``url(name)`` for a database on it, ``stop()`` when done."""

    bindir: Path
    root: Path
    port: int
    as_user: str | None
    _watchdog: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    #: The server's options, to start it again after ``halt``.
    options: str = ""

    @classmethod
    def start(cls, *, durable: bool = False) -> ThrowawayCluster:
        """initdb and start a server; ``NoPostgres`` if the binaries are missing."""
        bindir = find_bindir()
        if bindir is None:
            raise NoPostgres(
                "PostgreSQL server binaries not found (install Debian's postgresql package, "
                f"or set {BINDIR_ENV})"
            )
        as_user = "postgres" if os.geteuid() == 0 else None
        root = Path(tempfile.mkdtemp(prefix="shanghai-pg-"))
        if as_user is not None:
            shutil.chown(root, user=as_user)
        cluster = cls(bindir, root, _free_port(), as_user)
        try:
            cluster._run(
                "initdb", "-D", str(root / "db"), "-A", "trust", "-U", "postgres",
                "-E", "UTF8", "--no-sync", "--locale=C",
            )  # fmt: skip
            settings = [
                f"-p {cluster.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={root}",
                "-c max_connections=200",
            ]
            if not durable:
                settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            cluster.options = " ".join(settings)
            cluster.resume()
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        cluster._watch(os.getpid())
        return cluster

    def halt(self, mode: str = "immediate") -> None:
        """Stop the server but keep its files: ``fast`` (a clean shutdown) or ``immediate``
        (what an OOM kill or a container stop does: no checkpoint, crash recovery on start)."""
        self._run("pg_ctl", "-D", str(self.root / "db"), "-m", mode, "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on the same port and files."""
        self._run(
            "pg_ctl", "-D", str(self.root / "db"), "-l", str(self.root / "server.log"), "-w",
            "-o", self.options, "start",
        )  # fmt: skip

    def _command(self, tool: str, *args: str) -> list[str]:
        command = [str(self.bindir / tool), *args]
        if self.as_user is not None:
            command = ["runuser", "-u", self.as_user, "--", *command]
        return command

    def _watch(self, owner: int) -> None:
        """Start a shell that stops the server and deletes its folder once ``owner`` is gone."""
        stop = self._command("pg_ctl", "-D", str(self.root / "db"), "-m", "immediate", "stop")
        script = (
            f"while kill -0 {owner} 2>/dev/null; do sleep 1; done; "
            f"{shlex.join(stop)}; rm -rf {shlex.quote(str(self.root))}"
        )
        self._watchdog = subprocess.Popen(
            ["sh", "-c", script],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(self._command(tool, *args), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr.strip()[-500:]}")

    def url(self, database: str = "postgres") -> str:
        """A connection URL for ``database`` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str) -> None:
        """Run one statement as the superuser on the ``postgres`` database."""
        command = [str(self.bindir / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1"]
        command += ["-d", self.url(), "-c", statement]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()[-500:]}")

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        try:
            if (self.root / "db" / "postmaster.pid").exists():  # not halted already
                self._run("pg_ctl", "-D", str(self.root / "db"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            if self._watchdog is not None:
                self._watchdog.kill()
                self._watchdog.wait()
