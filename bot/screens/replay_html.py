"""A finished game as one HTML file that steps through it in any browser, offline.

``replay_html(record)`` replays the record with the engine (``engine.replay``) and writes, for
every step, only what a spectator saw then (the spectator's ``PlayerView``: melds, upcard,
stock and pile sizes, hand sizes, totals) plus the hands a deal's count laid open at the step
where it ended, so stepping through the file shows no card before the table saw it. The steps
are embedded as JSON and a small script draws them; the page needs no network, font or
image. The record itself is embedded too (``<script type="application/json" id="record">``),
so the file is also the game's downloadable record, and its end lists each deal's seed
beside the commitment shown while the deal was played.

Card texts stay the engine's (``7H``, ``JK``) in the data, which keeps the file small and
packs well; the script shows them with suit symbols (the joker stays ``JK``: its emoji needs
a font a browser may lack). In English only, like the command that writes it.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Mapping
from typing import Any

from engine.record import GameRecord, write_record
from engine.replay import Line, replay
from engine.rules import describe_contract
from engine.view import PlayerView

Json = dict[str, Any]


def replay_html(record: GameRecord, names: Mapping[str, str] | None = None) -> str:
    """The page for ``record``; ``names`` maps player ids to the names shown (ids by
    default). Raises ``ReplayError`` if the record does not replay."""
    data = replay_data(record, names)
    title = f"Shanghai replay: {', '.join(data['names'])}"
    return (
        _PAGE.replace("__TITLE__", html.escape(title))
        .replace("__STYLE__", _STYLE)
        .replace("__SCRIPT__", _SCRIPT)
        .replace("__DATA__", _script_json(json.dumps(data, separators=(",", ":"))))
        .replace("__RECORD__", _script_json(write_record(record)))
    )


def replay_data(record: GameRecord, names: Mapping[str, str] | None = None) -> Json:
    """What the page draws: the deals, the distinct meld layouts, every step (each from the
    spectator's view alone, plus the hands laid open where a deal ended) and the end."""
    shown = [
        (names or {}).get(player) or default_name(player, seat)
        for seat, player in enumerate(record.seats)
    ]
    deals: list[Json] = []
    deal_keys: dict[tuple[int, int, str | None], int] = {}
    layouts: list[list[list[Any]]] = []
    layout_keys: dict[tuple[tuple[int, str], ...], int] = {}
    steps: list[Json] = []
    last: PlayerView | None = None
    for step in replay(record):
        view = step.view(None)
        last = view
        deal_key = (view.deal, view.dealer, view.commitment)
        if deal_key not in deal_keys:
            deal_keys[deal_key] = len(deals)
            deals.append(_deal(view, len(steps)))
        melds = tuple((m.owner, str(m.meld)) for m in view.melds)
        if melds not in layout_keys:
            layout_keys[melds] = len(layouts)
            layouts.append([list(m) for m in melds])
        row: Json = {
            "d": deal_keys[deal_key],
            "c": view.current,
            "s": view.step,
            "u": None if view.upcard is None else str(view.upcard),
            "v": int(view.upcard_live),
            "k": view.stock_size,
            "p": view.discard_size,
            "h": [[s.hand_size, int(s.is_down), s.buys_used, s.total] for s in view.seats],
            "m": layout_keys[melds],
            "t": _line_text(step.line, shown),
        }
        if step.revealed:
            row["r"] = [" ".join(str(card) for card in hand) for hand in step.revealed]
            row["rd"] = step.revealed_deal
        steps.append(row)
    assert last is not None  # replay always yields the game as dealt
    return {
        "names": shown,
        "rules": record.rules.game,
        "deals": deals,
        "layouts": layouts,
        "steps": steps,
        "end": _end(last, [deal["commitment"] for deal in deals]),
    }


def default_name(player: str, seat: int) -> str:
    """The name shown for ``player`` when the table's names are not known (a record read from
    a file): a computer's id (``-3``) as the bot names computers, a person by their seat,
    numbered as players count them; never a bare id."""
    if player.startswith("-") and player[1:].isdigit():
        return f"Computer {player[1:]}"
    return f"Player {seat + 1}"


def _line_text(line: Line, shown: list[str]) -> str:
    """A step's line naming the player as the table did ("Ann: discard 7H"), not by id."""
    if line.seat is None:
        return line.text()
    tail = "".join(f"; {note}" for note in line.notes)
    return f"{shown[line.seat]}: {line.action}{tail}"


def _deal(view: PlayerView, first_step: int) -> Json:
    contract = describe_contract(view.contract) if view.contract else "melds of three or more"
    return {
        "deal": view.deal,
        "contract": contract,
        "dealer": view.dealer,
        "commitment": view.commitment,
        "first": first_step,
    }


def _end(view: PlayerView, commitments: list[str | None]) -> Json:
    """The final totals, the score sheet and each deal attempt's seed and commitment: public
    once the game is over (a commitment was public from its deal's start)."""
    shown = [c for c in commitments if c is not None]
    seeds = []
    for attempt, seed in enumerate(view.deal_seeds):
        commitment = shown[attempt] if attempt < len(shown) else None
        digest = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
        seeds.append({"seed": seed, "commitment": commitment, "ok": digest == commitment})
    return {
        "totals": [seat.total for seat in view.seats],
        "winners": list(view.winners),
        "sheet": [list(row) for row in view.score_sheet],
        "seeds": seeds,
    }


def _script_json(text: str) -> str:
    """JSON safe inside a ``<script>`` element: ``<`` as its JSON escape, so no ``</script>``
    or ``<!--`` in a player's id can end the element (the value parses the same)."""
    return text.replace("<", "\\u003c")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__STYLE__</style>
</head>
<body>
<header>
<h1>Shanghai replay</h1>
<nav>
<button id="first" title="The cards as dealt">|&#x25C0; First</button>
<button id="prevDeal">&#x25C0;&#x25C0; Previous deal</button>
<button id="prev" title="Left arrow">&#x25C0; Previous</button>
<button id="next" title="Right arrow">Next &#x25B6;</button>
<button id="nextDeal">Next deal &#x25B6;&#x25B6;</button>
<button id="last" title="The game's end">Last &#x25B6;|</button>
<label>Jump to <select id="jump"></select></label>
<button id="download">Download record</button>
</nav>
<p id="where"></p>
</header>
<main>
<p id="line"></p>
<p id="status"></p>
<p id="pile"></p>
<table id="seats"><thead><tr><th>Player</th><th>Cards</th><th>Down</th>
<th>Buys</th><th>Total</th></tr></thead><tbody></tbody></table>
<section id="melds"></section>
<section id="revealed"></section>
<section id="final" hidden></section>
</main>
<script type="application/json" id="steps">__DATA__</script>
<script type="application/json" id="record">__RECORD__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#0f3d2e;color:#f4f1e8}
header{background:#0a2b20;padding:.6em 1em;position:sticky;top:0}
h1{font-size:1.2em;margin:0 0 .4em}
nav{display:flex;flex-wrap:wrap;gap:.4em;align-items:center}
button,select{font:inherit;padding:.25em .6em;border-radius:4px;border:1px solid #8a7;
background:#f4f1e8;color:#123}
button:disabled{opacity:.45}
main{padding:.6em .6em 2em;max-width:60em}
#line{font-weight:600;font-size:1.05em}
table{border-collapse:collapse;margin:.6em 0;width:100%;max-width:40em;table-layout:fixed}
th,td{border:1px solid #5b8c74;padding:.2em .3em;text-align:left;overflow-wrap:anywhere}
#seats th:first-child,#seats td:first-child{width:40%}
tr.turn td{background:#1d5a43}
.card{background:#fffdf6;color:#111;border-radius:3px;padding:0 .2em;margin:0 .1em;
white-space:nowrap}
.red{color:#c0182b}
.seat{margin:.3em 0}
.ok{color:#7fe0a0}.bad{color:#ff8a8a}
code{font-size:.8em;word-break:break-all}
"""

_SCRIPT = """
"use strict";
const data = JSON.parse(document.getElementById("steps").textContent);
const names = data.names, steps = data.steps, deals = data.deals;
const SUITS = {C: "\\u2663", D: "\\u2666", H: "\\u2665", S: "\\u2660"};
let at = 0;
const $ = (id) => document.getElementById(id);

function cards(text) {
  const out = document.createElement("span");
  let rest = String(text);
  const re = /\\b(JK|10|[2-9AJQK])([CDHS])?\\b/;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m[1] !== "JK" && !m[2]) { out.append(rest.slice(0, m.index + m[0].length));
      rest = rest.slice(m.index + m[0].length); continue; }
    out.append(rest.slice(0, m.index));
    const card = document.createElement("span");
    card.className = "card" + (m[2] === "H" || m[2] === "D" ? " red" : "");
    card.textContent = m[1] === "JK" && !m[2] ? "JK" : m[1] + SUITS[m[2]];
    out.append(card);
    rest = rest.slice(m.index + m[0].length);
  }
  out.append(rest);
  return out;
}

function para(label, content) {
  const p = document.createElement("p");
  p.className = "seat";
  p.append(label);
  if (content !== undefined) p.append(content);
  return p;
}

function render() {
  const s = steps[at], deal = deals[s.d];
  $("where").textContent = "Deal " + deal.deal + ": " + deal.contract + ", dealt by " +
    names[deal.dealer] + ". Step " + at + " of " + (steps.length - 1) + ".";
  $("line").replaceChildren(cards(s.t));
  $("status").textContent = s.s === "over" ? "The game is over." :
    "Turn: " + names[s.c] + " (" + (s.s === "draw" ? "drawing" : "playing") + ")";
  const pile = $("pile");
  pile.replaceChildren("Upcard: ");
  if (s.u) { pile.append(cards(s.u), data.rules === "shanghai" && !s.v ? " (dead)" : ""); }
  else pile.append("none");
  pile.append(" \\u00b7 Stock: " + s.k + " \\u00b7 Pile: " + s.p);
  const body = $("seats").tBodies[0];
  body.replaceChildren();
  s.h.forEach((seat, i) => {
    const tr = body.insertRow();
    if (i === s.c && s.s !== "over") tr.className = "turn";
    [(i + 1) + ". " + names[i], seat[0], seat[1] ? "yes" : "", seat[2], seat[3]].forEach((v) => {
      tr.insertCell().textContent = v; });
  });
  const melds = $("melds");
  melds.replaceChildren();
  const layout = data.layouts[s.m];
  if (layout.length) {
    const h = document.createElement("h2"); h.textContent = "Melds"; melds.append(h);
    names.forEach((name, seat) => {
      const mine = layout.filter((m) => m[0] === seat);
      if (!mine.length) return;
      const p = para(name + ": ");
      mine.forEach((m, i) => { if (i) p.append(" | "); p.append(cards(m[1])); });
      melds.append(p);
    });
  }
  const shown = $("revealed");
  shown.replaceChildren();
  if (s.r) {
    const h = document.createElement("h2");
    h.textContent = "Deal " + s.rd + " ends: the hands as counted";
    shown.append(h);
    s.r.forEach((hand, seat) => shown.append(para(names[seat] + ": ", cards(hand || "-"))));
  }
  $("final").hidden = at !== steps.length - 1;
  $("first").disabled = $("prev").disabled = $("prevDeal").disabled = at === 0;
  $("last").disabled = $("next").disabled = $("nextDeal").disabled = at === steps.length - 1;
  $("jump").value = String(s.d);
}

function drawFinal() {
  const end = data.end, box = $("final");
  const h = document.createElement("h2"); h.textContent = "Final scores"; box.append(h);
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  ["Deal", ...names].forEach((v) => { const th = document.createElement("th");
    th.textContent = v; head.append(th); });
  const body = table.createTBody();
  end.sheet.forEach((row, i) => { const tr = body.insertRow();
    [i + 1, ...row].forEach((v) => { tr.insertCell().textContent = v; }); });
  const total = body.insertRow();
  total.id = "totals";
  total.insertCell().textContent = "Total";
  end.totals.forEach((v, seat) => { const td = total.insertCell();
    td.textContent = v; td.dataset.seat = seat; });
  box.append(table);
  box.append(para("Won by " + end.winners.map((i) => names[i]).join(", ")));
  const h3 = document.createElement("h2"); h3.textContent = "Deal seeds"; box.append(h3);
  if (!end.seeds.length) box.append(para("An older shuffle: this game has no deal seeds."));
  end.seeds.forEach((seed, i) => {
    const p = para("Deal attempt " + (i + 1) + ": seed ");
    const code = document.createElement("code"); code.textContent = seed.seed;
    const commit = document.createElement("code"); commit.textContent = seed.commitment || "-";
    const mark = document.createElement("span");
    mark.className = seed.ok ? "ok" : "bad";
    mark.textContent = seed.ok ? " \\u2714 SHA-256 matches" : " \\u2718 no match";
    p.append(code, ", commitment ", commit, mark);
    box.append(p);
  });
}

function go(i) { at = Math.max(0, Math.min(steps.length - 1, i)); render(); }
function dealStart(d) { return deals[d].first; }
$("first").onclick = () => go(0);
$("last").onclick = () => go(steps.length - 1);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("nextDeal").onclick = () => go(steps[at].d + 1 < deals.length ?
  dealStart(steps[at].d + 1) : steps.length - 1);
$("prevDeal").onclick = () => { const d = steps[at].d;
  go(at > dealStart(d) ? dealStart(d) : d > 0 ? dealStart(d - 1) : 0); };
deals.forEach((deal, i) => { const o = document.createElement("option");
  o.value = String(i); o.textContent = "Deal " + deal.deal +
    (i > 0 && deals[i - 1].deal === deal.deal ? " (dealt again)" : ""); $("jump").append(o); });
$("jump").onchange = (e) => go(dealStart(Number(e.target.value)));
$("download").onclick = () => {
  const blob = new Blob([$("record").textContent], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = "shanghai-game.json"; a.click();
};
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(at + 1); else if (e.key === "ArrowLeft") go(at - 1); });
drawFinal();
render();
"""
