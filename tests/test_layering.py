"""The rooms' walls as tests (issue 22): what may import what, and who may read what.

- No import cycle among the product's modules at run time. Imports inside functions count
  (they only hide a cycle); imports under ``if TYPE_CHECKING:`` do not (they never run).
- ``bot/``'s rooms stand in one order, ``ROOMS``, from the ground floor up: a module imports
  its own room and the rooms below, never one above, and no files within a room import each
  other in a circle (type-only imports aside, as above).
- No module imports another's private names (``from x import _y``), and no module touches a
  private name the product does not define itself (a library's: discord.py's, aiosqlite's),
  except inside the one isolating function named in ``PRIVATE_ACCESS``, which has a test that
  fails when the library changes.
- The public side (views, publisher, screens, the hand follower, delivery, events) never reads
  the live ``Game`` (``.game``): it draws from ``TableSnapshot`` and ``SeatSnapshot``, or asks
  the service.
- The product never imports the tools beside it, nor simcord (a development dependency).
- No ``getattr`` reach-ins (``getattr``, ``hasattr``, ``setattr``, ``delattr``): outside
  ``bot/service`` none of them takes the table service as its object, and nowhere does one
  name a private attribute with a string literal (see ``_reach_ins``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "data", "bot")
PUBLIC_SIDE = (
    "bot/views",
    "bot/screens",
    "bot/channel/publisher.py",
    "bot/channel/outbox.py",
    "bot/channel/placement.py",
    "bot/channel/table_text.py",
    "bot/channel/hand_follower.py",
    "bot/channel/delivery.py",
    "bot/channel/courier.py",
    "bot/events",
)
#: ``bot/``'s rooms from the ground up. A module may import its own room and those below it;
#: ``bot/__init__.py`` and ``bot/__main__.py`` stand above them all. ``ground`` (logs, back-off,
#: storage faults, error types) imports nothing else of the bot; the service draws on the
#: words; the interactions answer clicks through the service; the screens draw, the views lay
#: them out with buttons, the channel posts views; events, cogs and the process sit on top.
ROOMS = (
    "ground",
    "i18n",
    "service",
    "interactions",
    "screens",
    "views",
    "channel",
    "events",
    "cogs",
    "process",
)
#: The only places that may touch a private name of another module, each isolated behind one
#: function with a test that fails when the library changes it.
PRIVATE_ACCESS = {
    # aiosqlite's worker thread, made a daemon (tests/data/test_sqlite_store.py checks it).
    ("data/sqlite_connection.py", "daemon_worker"),
    # aiosqlite's queue to that thread, for a group commit's one trip there (the same test
    # file checks it runs there).
    ("data/sqlite_connection.py", "on_worker_thread"),
    # discord.py's gateway parser, wrapped to refuse clicks during shutdown
    # (tests/bot/test_shutdown.py: clicks after shutdown began are refused politely).
    ("bot/process/app.py", "_gate_interactions"),
    # simcord's Preview, republished after the bot's own background moves (``python -m bot
    # try``; tests/bot/test_try.py fails when simcord changes it; its minor version is pinned).
    ("bot/process/try_it.py", "republish"),
}
#: The one product module that may import simcord: ``python -m bot try`` runs the real bot in
#: simcord's simulated Discord, on the optional ``try`` extra, imported only by that
#: subcommand (``test_only_try_imports_simcord_and_only_when_asked``).
SIMCORD_ALLOWED = {"bot.process.try_it"}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """Ids of the import nodes under ``if TYPE_CHECKING:``."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    hidden.add(id(sub))
    return hidden


def _imports(module: str, path: Path) -> Iterator[tuple[str, list[str]]]:
    """(imported module, names taken from it) for each import that runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = _type_checking_blocks(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            yield target, [alias.name for alias in node.names]


def _edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, names in _imports(module, path):
            for name in names or [""]:
                full = f"{target}.{name}" if name else target
                if full in MODULES:
                    graph[module].add(full)
                elif target in MODULES:
                    graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _is_package_init_edge(module: str, target: str) -> bool:
    """A package's ``__init__`` re-exporting its own submodules is not a cycle of ours: the
    submodule importing a sibling loads the package first, which Python allows."""
    return MODULES[target].name == "__init__.py" and module.startswith(target + ".")


def test_no_import_cycle_at_run_time() -> None:
    graph = {
        module: {t for t in targets if not _is_package_init_edge(module, t)}
        for module, targets in _edges().items()
    }
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_hidden_cycle() -> None:
    """The test above can fail: two modules importing each other, one inside a function."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def _rank(module: str) -> int:
    """Where ``module``'s room stands in ``ROOMS``; the modules of ``bot`` itself stand on top."""
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in ROOMS):
        return ROOMS.index(parts[1])
    return len(ROOMS)


def _upward(graph: dict[str, set[str]]) -> list[str]:
    """Each import of ``bot/`` that runs from a room to one above it."""
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("bot.")
        for target in targets
        if target.startswith("bot.") and _rank(target) > _rank(module)
    )


def _circles_within_rooms(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles among the files of one room of ``bot/``."""

    def room(module: str) -> str:
        return module.split(".")[1] if module.count(".") >= 2 else ""

    within = {
        module: {
            t
            for t in targets
            if t.startswith("bot.")
            and room(t) == room(module) != ""
            and not _is_package_init_edge(module, t)
        }
        for module, targets in graph.items()
        if module.startswith("bot.")
    }
    return _cycles(within)


def test_every_room_of_bot_has_its_place() -> None:
    """A new room is placed in ``ROOMS`` on purpose, not left out of the count below."""
    rooms = {path.parent.name for path in (ROOT / "bot").glob("*/__init__.py")}
    assert rooms == set(ROOMS)


def test_no_import_runs_up_between_rooms() -> None:
    assert _upward(_edges()) == []


def test_no_files_within_a_room_import_each_other_in_a_circle() -> None:
    assert _circles_within_rooms(_edges()) == []


def test_the_room_walls_find_an_upward_import_and_a_circle() -> None:
    """The two tests above can fail: the service importing the process's log helpers (as it did
    before the ground floor), and two channel files importing each other."""
    graph = {
        "bot.service.timers": {"bot.process.logs", "bot.ground.logs"},
        "bot.process.logs": set(),
        "bot.ground.logs": set(),
        "bot.channel.delivery": {"bot.channel.publisher"},
        "bot.channel.publisher": {"bot.channel.delivery", "bot.views.table"},
        "bot.views.table": set(),
        "bot.__main__": {"bot.process.cli"},
        "bot.process.cli": set(),
    }
    assert _upward(graph) == ["bot.service.timers -> bot.process.logs"]
    assert _circles_within_rooms(graph) == [["bot.channel.delivery", "bot.channel.publisher"]]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_private_names() -> set[str]:
    """Every private name the product defines: functions, classes, attributes it assigns."""
    names: set[str] = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {name for name in names if _is_private(name)}


OURS = _defined_private_names()


def _private_uses(path: Path) -> Iterator[tuple[str, str]]:
    """(function, what) for each private name ``path`` imports from another module, or
    touches without the product defining it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                functions.setdefault(id(sub), node.name)
    for node in ast.walk(tree):
        where = functions.get(id(node), "<module>")
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _is_private(alias.name):
                    yield where, f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Attribute) and _is_private(node.attr) and node.attr not in OURS:
            yield where, ast.unparse(node)


def test_no_module_reads_another_modules_private_names() -> None:
    offenders = []
    for path in MODULES.values():
        relative = path.relative_to(ROOT).as_posix()
        for function, what in _private_uses(path):
            if (relative, function) not in PRIVATE_ACCESS:
                offenders.append(f"{relative} {function}: {what}")
    assert offenders == []


def _public_side_files() -> list[Path]:
    files: list[Path] = []
    for entry in PUBLIC_SIDE:
        path = ROOT / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def test_the_public_side_never_reads_the_live_game() -> None:
    offenders = []
    for path in _public_side_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr != "game":
                continue
            owner = node.value
            if (isinstance(owner, ast.Attribute) and owner.attr == "rules") or (
                isinstance(owner, ast.Name) and owner.id == "rules"
            ):
                continue  # ``view.rules.game``: which game the rules are for
            offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert offenders == []


def test_the_product_imports_no_tools_and_no_simcord() -> None:
    offenders = []
    for module, path in MODULES.items():
        for target, _names in _imports(module, path):
            top = target.split(".")[0]
            if top == "tools" or (top == "simcord" and module not in SIMCORD_ALLOWED):
                offenders.append(f"{module}: {target}")
    assert offenders == []


def test_only_try_imports_simcord_and_only_when_asked() -> None:
    """``bot.process.try_it`` is reached only from inside the ``try`` subcommand's function, so a
    running bot (or its ``--help``) never imports simcord."""
    importers = [
        module
        for module, path in MODULES.items()
        for target, names in _imports(module, path)
        if "bot.process.try_it" in (target, *(f"{target}.{name}" for name in names))
    ]
    assert importers == ["bot.process.cli"]
    tree = ast.parse(MODULES["bot.process.cli"].read_text(encoding="utf-8"))
    top_level = {
        ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
    }
    assert not any("try_it" in line for line in top_level)


def test_tools_are_not_installed_with_the_package() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'include = ["engine*", "bot*", "data*"]' in text
    assert (ROOT / "tools" / "__init__.py").exists()


REFLECTION = {"getattr", "hasattr", "setattr", "delattr"}


def _is_service(node: ast.expr, bound: set[str]) -> bool:
    """Whether ``node`` is the table service: a name or attribute called ``service``
    (``service``, ``self.bot.service``, ``interaction.client.service``), a local name bound
    to one, or a ``getattr(x, "service", ...)``."""
    if isinstance(node, ast.Name):
        return node.id == "service" or node.id in bound
    if isinstance(node, ast.Attribute):
        return node.attr == "service"
    return _literal_name(node) == "service"


def _literal_name(node: ast.expr) -> str | None:
    """The attribute a ``getattr``-family call names with a string literal, else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in REFLECTION
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[1].value
    return None


def _reach_ins(source: str, *, in_service: bool) -> Iterator[tuple[int, str, str]]:
    """(line, function, call) for each ``getattr``-family call that reaches past a wall.

    Two rules, both about what a type checker and the tests here cannot see:

    - Outside ``bot/service`` the service is met only through its typed public methods: a
      ``getattr``/``hasattr``/``setattr``/``delattr`` whose object is the service (as
      ``_is_service`` knows it) is refused, whatever the name, literal or not.
      ``getattr(service, "tables", {})`` read the live tables past mypy; the service answers
      such a question itself (``TableService.needs_time``). Fetching the service from the
      client (``getattr(bot, "service", None)``) is not a reach-in: the bot's ``service`` is
      public.
    - Anywhere in the product, such a call never names a private attribute with a literal:
      ``getattr(x, "_y")`` is ``x._y`` hidden from ``_private_uses``; write ``x._y`` so the
      test above judges it.
    """
    tree = ast.parse(source)
    functions: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                functions[id(sub)] = node.name  # the innermost function wins (walked later)
    bound: set[str] = set()
    if not in_service:
        for node in ast.walk(tree):
            value = getattr(node, "value", None)
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if _is_service(value, bound):
                    bound |= {t.id for t in targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in REFLECTION
            and node.args
        ):
            continue
        name = _literal_name(node)
        private = name is not None and _is_private(name)
        if private or (not in_service and _is_service(node.args[0], bound)):
            yield node.lineno, functions.get(id(node), "<module>"), ast.unparse(node)


def test_no_getattr_reaches_into_the_service_or_a_private_name() -> None:
    offenders = []
    for path in MODULES.values():
        relative = path.relative_to(ROOT).as_posix()
        in_service = relative.startswith("bot/service/")
        for line, function, call in _reach_ins(path.read_text("utf-8"), in_service=in_service):
            if (relative, function) not in PRIVATE_ACCESS:
                offenders.append(f"{relative}:{line} {function}: {call}")
    assert offenders == []


def test_the_reach_in_finder_finds_them() -> None:
    """The test above can fail: the reach-in ``answers.for_click`` made before the service
    answered ``needs_time`` itself, and its like; not the fetching of the service itself."""
    old_for_click = """
def for_click(interaction, table_id):
    service = getattr(interaction.client, "service", None)
    tables = getattr(service, "tables", {})
    return needs_time(tables.get(table_id), interaction.user.id)
"""
    found = list(_reach_ins(old_for_click, in_service=False))
    assert [(line, call) for line, _, call in found] == [(4, "getattr(service, 'tables', {})")]
    others = """
def f(bot, name):
    hasattr(bot.service, name)
    getattr(getattr(bot, "service"), "by_channel")
    setattr(client, "_connection", None)
    getattr(bot, "service", None)
    getattr(bot, "hands", None)
"""
    assert [line for line, _, _ in _reach_ins(others, in_service=False)] == [3, 4, 5]
    assert [line for line, _, _ in _reach_ins(others, in_service=True)] == [5]
