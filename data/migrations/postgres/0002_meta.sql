-- 0002: facts the bot keeps about itself, e.g. the hash of the slash commands it last synced.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
