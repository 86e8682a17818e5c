-- 0007: events, a server's players at several tables over rounds. `options` holds what the
-- organiser chose (preset, deals, table size, rounds, final table, ranked, start time), as
-- JSON so a new choice needs no new column. `round` is the round seated last (0: still
-- taking sign-ups). A round's seating is written before its tables are opened, and each
-- `event_tables` row gets its `table_id` once its table exists, so a restart in between
-- opens only the tables still missing. Results are the tables' own (`results`).

CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER,
    organiser_id INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    status       TEXT    NOT NULL DEFAULT 'signup'
                         CHECK (status IN ('signup', 'running', 'paused', 'finished',
                                           'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);

CREATE INDEX events_open ON events (guild_id) WHERE status IN ('signup', 'running', 'paused');

-- Who signed up; `removed` marks a player the organiser took out after the start (kept, so
-- their finished tables still count for the others).
CREATE TABLE event_players (
    event_id     INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    signed_up_at REAL    NOT NULL,
    removed      INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
    PRIMARY KEY (event_id, user_id)
);

-- One row per table of a round; `players` are the user ids seated there, best first.
CREATE TABLE event_tables (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL CHECK (round >= 1),
    position INTEGER NOT NULL CHECK (position >= 0),
    players  TEXT    NOT NULL CHECK (json_valid(players)),
    table_id INTEGER REFERENCES tables (id),
    PRIMARY KEY (event_id, round, position)
);

CREATE UNIQUE INDEX event_tables_by_table ON event_tables (table_id) WHERE table_id IS NOT NULL;

-- Who sat out which round (the count forced it).
CREATE TABLE event_sit_outs (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL CHECK (round >= 1),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (event_id, round, user_id)
);
