"""Shanghai Rummy (and classic Rummy) as a pure, typed rules library.

No clock, no I/O, no discord: the bot, the computer players and the tests ask it what a
player may do, apply one action at a time, and read a per-player view.
"""
