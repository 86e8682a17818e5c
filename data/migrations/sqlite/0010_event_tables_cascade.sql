-- 0010: an event's table row goes with the game it points at. `event_tables.table_id`
-- referenced `tables` with no delete rule, so deleting a server's tables (the purge of a
-- server the bot left) failed while an event's seating still pointed at one of them.
--
-- SQLite cannot change a foreign key in place, so this is its table-rebuild recipe
-- (https://www.sqlite.org/lang_altertable.html#otheralter), as in 0003: build the new table,
-- copy every row, drop the old one, rename, and re-create its index. Foreign keys are off
-- while migrations run and data/migrations.py runs PRAGMA foreign_key_check before committing.

CREATE TABLE event_tables_new (
    event_id  INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round     INTEGER NOT NULL CHECK (round >= 1),
    position  INTEGER NOT NULL CHECK (position >= 0),
    players   TEXT    NOT NULL CHECK (json_valid(players)),
    table_id  INTEGER REFERENCES tables (id) ON DELETE CASCADE,
    computers INTEGER NOT NULL DEFAULT 0 CHECK (computers >= 0),
    finishes  TEXT    CHECK (finishes IS NULL OR json_valid(finishes)),
    PRIMARY KEY (event_id, round, position)
);

INSERT INTO event_tables_new (event_id, round, position, players, table_id, computers, finishes)
SELECT event_id, round, position, players, table_id, computers, finishes FROM event_tables;

DROP TABLE event_tables;

ALTER TABLE event_tables_new RENAME TO event_tables;

CREATE UNIQUE INDEX event_tables_by_table ON event_tables (table_id) WHERE table_id IS NOT NULL;
