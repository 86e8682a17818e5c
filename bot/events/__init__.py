"""Events: a whole server playing several tables over rounds, with standings.

``seating`` and ``standings`` are pure (no Discord, no store): who sits where in a round
(computers in the seats a count leaves empty), and how places at the tables become event
points. ``runner`` is the glue that opens the tables of a round and notices when they end;
``clock`` holds its start-time timers, and ``hall`` is its Discord side (threads, the event
message and its buttons). The places of a table the organiser ends come from the service
(``TableService.finishes_now``): nothing here reads a live game.
"""
