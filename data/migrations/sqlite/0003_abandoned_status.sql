-- 0003: a table can end as 'abandoned' (its channel or server went, or no person played for a
-- day), told apart from 'ended' (its host or a moderator closed it). Neither has results.
--
-- SQLite cannot change a CHECK constraint in place, so this is its table-rebuild recipe
-- (https://www.sqlite.org/lang_altertable.html#otheralter): build the new table, copy every
-- row (ids kept, so the actions and results that reference them still match), drop the old
-- one, rename, and re-create its index. Foreign keys are off while migrations run and
-- data/migrations.py runs PRAGMA foreign_key_check before committing.

CREATE TABLE tables_new (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game_kind     TEXT    NOT NULL CHECK (game_kind IN ('shanghai', 'rummy')),
    status        TEXT    NOT NULL DEFAULT 'lobby'
                          CHECK (status IN ('lobby', 'playing', 'finished', 'ended',
                                            'abandoned')),
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

INSERT INTO tables_new (id, guild_id, channel_id, game_kind, status, host_id, message_id, seats,
                        options, state, version, buy_deadline, turn_deadline, away, created_at,
                        updated_at)
SELECT id, guild_id, channel_id, game_kind, status, host_id, message_id, seats, options, state,
       version, buy_deadline, turn_deadline, away, created_at, updated_at
FROM tables;

DROP TABLE tables;

ALTER TABLE tables_new RENAME TO tables;

-- At most one open table per channel (as in 0001); finished, ended and abandoned tables stay
-- as history and do not count.
CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (channel_id) WHERE status IN ('lobby', 'playing');
