"""Events: a whole server playing several tables over rounds, with standings.

``seating`` and ``standings`` are pure (no Discord, no store): who sits where in a round, and
how places at the tables become event points. ``runner`` is the glue that opens the tables of a
round and notices when they end.
"""
