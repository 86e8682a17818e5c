"""The computer players and the hints: clients of the rules, never part of them.

Everything here sees a game only through ``Game.view`` and ``Game.legal_actions`` (or, for the
simulator and random play, drives a ``Game`` as a table would; the searching expert plays on
games of its own, built from its view alone), so the rules in ``engine/`` stand alone and
import nothing from this package. Modules:

- ``hints``: hand analysis (deficiency, the plan towards a contract, discard advice, ``hint``);
- ``strategy``: the random, easy and normal computer players;
- ``expert`` and ``reading``: the expert player and what a seat infers from the history;
- ``search_expert`` and ``determinize``: the searching expert (deal rollouts over the hidden
  cards at the upcard decisions) and the games it plays them on;
- ``random_play``: random legal play for property tests and benchmarks;

Strategies against each other (``python -m tools.simulate``) and time per decision
(``python -m tools.bench_players``) are tools beside the package, in ``tools/``.
"""
