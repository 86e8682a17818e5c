"""The README and docs/ say what the code does: the commands they give exist, the invite's
permissions integer is the bot's, every migration and permission is explained, links lead
somewhere, and the README stays a short front door."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.i18n import t
from bot.interactions.permissions import NEEDED
from bot.interactions.threads import THREAD_PERMISSIONS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_readme_is_a_front_door() -> None:
    assert len(_text(README).splitlines()) <= 150


def test_ci_runs_the_readmes_test_command() -> None:
    readme = _text(README)
    after = readme[readme.index("Run the tests") :]
    command = re.search(r"```bash\n(.+?)\n```", after, re.S)
    assert command is not None
    ci = _text(ROOT / ".ci" / "run")
    step = ci[ci.index('step "the README\'s test command"') :].splitlines()
    assert step[1].strip() == command[1].strip() == "python -m pytest -n auto"


def test_the_invite_url_asks_for_what_the_bot_needs() -> None:
    urls = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", _text(README))
    assert len(urls) == 1
    assert "client_id=YOUR_APP_ID&scope=bot+applications.commands&" in urls[0]
    asked = re.search(r"permissions=(\d+)", urls[0])
    assert asked is not None
    flags = dict.fromkeys((*NEEDED, *THREAD_PERMISSIONS), True)
    assert int(asked[1]) == discord.Permissions(**flags).value


def test_the_admin_guide_explains_every_permission_bit() -> None:
    admin = _text(DOCS / "admin.md")
    section = admin[admin.index("## Permissions") :]
    section = section[: section.index("\n## ", 5)]
    rows = re.findall(r"^\| ([A-Z][^|]+?) \| (\d+) \| (\d+) \|", section, re.M)
    explained = {name: (int(bit), int(value)) for name, bit, value in rows}
    for flag in (*NEEDED, *THREAD_PERMISSIONS):
        value = discord.Permissions(**{flag: True}).value
        assert explained.pop(t(f"permission.{flag}", "en")) == (value.bit_length() - 1, value)
    assert explained == {}
    total = discord.Permissions(**dict.fromkeys((*NEEDED, *THREAD_PERMISSIONS), True)).value
    assert f"`{total}`" in section
    assert f"`{discord.Permissions(**dict.fromkeys(NEEDED, True)).value}`" in section


def test_the_upgrade_notes_name_every_migration() -> None:
    admin = _text(DOCS / "admin.md")
    upgrading = admin[admin.index("## Upgrading") :]
    upgrading = upgrading[: upgrading.index("\n## ", 5)]
    for dialect in ("sqlite", "postgres"):
        for sql in sorted((ROOT / "data" / "migrations" / dialect).glob("*.sql")):
            number, name = sql.stem.split("_", 1)
            assert f"| {number} {name.replace('_', ' ')} |" in upgrading, sql.name


def test_every_tool_the_docs_name_exists() -> None:
    for page in (README, *DOCS.glob("*.md")):
        for module in re.findall(r"python -m (tools\.\w+)", _text(page)):
            assert (ROOT / f"{module.replace('.', '/')}.py").is_file(), (page.name, module)


def test_relative_links_lead_to_files() -> None:
    for page in (README, *DOCS.glob("*.md")):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _text(page)):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), (page.name, target)


def _slash_commands() -> list[tuple[str, list[str]]]:
    """Every slash command of the bot, by its full name, with its options' names."""
    import asyncio

    from discord import app_commands

    from bot import Settings, create_bot

    async def tree() -> list[tuple[str, list[str]]]:
        bot = create_bot(Settings(discord_token="a" * 24 + ".bcdefg." + "c" * 27))  # type: ignore[arg-type]
        await bot.load_commands()
        return [
            (f"/{command.qualified_name}", [p.name for p in command.parameters])
            for command in bot.tree.walk_commands()
            if not isinstance(command, app_commands.Group)
        ]

    return asyncio.run(tree())


def test_every_slash_command_is_in_the_players_or_admin_guide() -> None:
    guides = _text(DOCS / "players.md") + _text(DOCS / "admin.md")
    commands = _slash_commands()
    assert len(commands) > 20
    missing = [name for name, _ in commands if f"`{name}" not in guides]
    assert missing == [], f"commands no guide names: {missing}"
    # An option for someone who left the server is worth nothing unless people know of it.
    for name, options in commands:
        if "user_id" in options:
            rows = [line for line in guides.splitlines() if f"`{name}" in line]
            assert any("user_id:" in row for row in rows), name


def test_every_command_line_subcommand_is_in_the_admin_guide() -> None:
    from bot.process.cli import parser

    admin = _text(DOCS / "admin.md")
    deploying = admin[admin.index("## Deploying") :]
    table = deploying[: deploying.index("\n## ", 5)]
    [commands] = [a for a in parser()._actions if a.dest == "command"]
    names = list(commands.choices or {})  # type: ignore[union-attr]
    assert {"run", "try", "sync", "check", "backup", "replay", "member"} <= set(names)
    for name in names:
        assert re.search(rf"^\| `{name}\b", table, re.M), f"`{name}` has no row in the table"


def test_every_docs_page_is_in_the_readmes_documentation_list() -> None:
    readme = _text(README)
    listed = readme[readme.index("## Documentation") :]
    listed = listed[: listed.index("\n## ", 5)]
    for page in sorted(DOCS.glob("*.md")):
        assert f"](docs/{page.name})" in listed, page.name


def test_the_readme_runs_the_bot_without_the_test_tools_and_sets_the_tests_up() -> None:
    readme = _text(README)
    run = readme[readme.index("Set up and run the bot") :]
    command = re.search(r"```bash\n(.+?)\n```", run, re.S)
    assert command is not None
    assert "pip install -c constraints.txt -e . &&" in command[1], command[1]
    assert command[1].endswith("python -m bot")
    tests = readme[readme.index("Run the tests") :]
    setup = tests[: tests.index("```")]
    assert "pip install -c constraints.txt -e '.[dev]'" in setup
