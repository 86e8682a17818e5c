-- 0001: tables (one game each), their action log, and per-player results.
--
-- Times are unix seconds (REAL), the same clock the bot uses for deadlines.
-- JSON columns (seats, options, away) are small and checked with json_valid; `state` is the
-- engine's own JSON, opaque here and rewritten on every action, so it is not re-parsed.

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game_kind     TEXT    NOT NULL CHECK (game_kind IN ('shanghai', 'rummy')),
    status        TEXT    NOT NULL DEFAULT 'lobby'
                          CHECK (status IN ('lobby', 'playing', 'finished', 'ended')),
    host_id       INTEGER NOT NULL,
    message_id    INTEGER,
    -- [{user_id, name, is_computer, level}] in seat order
    seats         TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(seats)),
    -- table options: preset name, rule overrides, buy_seconds, turn_seconds, ...
    options       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    state         TEXT,
    -- number of accepted actions; the optimistic-concurrency token of save_action
    version       INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    buy_deadline  REAL,
    turn_deadline REAL,
    -- [{timeouts, away}] per seat, in seat order
    away          TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(away)),
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);

-- At most one open table per channel: the rule the bot relies on to find "the" table of a
-- channel. Finished and ended tables stay as history and do not count.
CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing');

-- The audit log: one row per accepted action, seq = the table's version after it.
CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    user_id    INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- One row per (human) seat of a finished game. guild_id and game_kind are copied from the
-- table so the leaderboard reads this table alone.
CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game_kind   TEXT    NOT NULL CHECK (game_kind IN ('shanghai', 'rummy')),
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    total       INTEGER NOT NULL,
    is_winner   INTEGER NOT NULL CHECK (is_winner IN (0, 1)),
    deals_out   INTEGER NOT NULL DEFAULT 0 CHECK (deals_out >= 0),
    blind_outs  INTEGER NOT NULL DEFAULT 0 CHECK (blind_outs >= 0),
    buys_used   INTEGER NOT NULL DEFAULT 0 CHECK (buys_used >= 0),
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- Leaderboard and player stats: everything for one guild and game kind, per user, newest last.
CREATE INDEX results_by_player ON results (guild_id, game_kind, user_id, finished_at);
