-- 0007: servers the bot was removed from. `left_at` is when it left (unix time); a row stays
-- until the bot rejoins (deleted) or the server's data is deleted after
-- SHANGHAI_DEPARTED_GUILD_DAYS, row and all (data/members.py).

CREATE TABLE guild_departures (
    guild_id INTEGER PRIMARY KEY,
    left_at  REAL    NOT NULL
);
