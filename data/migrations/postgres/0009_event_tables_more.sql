-- 0009: what an event's table needs beyond its players. `computers` is how many computer
-- players fill its empty seats (the count of players forced a short table, or the organiser
-- asked for full tables). `finishes` is set when the organiser ends a stuck table: each
-- player's place and score at that moment, as JSON `[[user_id, place, total], ...]`, so the
-- event points of that table come from the standings when it was ended (its game, ended,
-- has no results of its own).

ALTER TABLE event_tables ADD COLUMN computers INTEGER NOT NULL DEFAULT 0 CHECK (computers >= 0);
ALTER TABLE event_tables ADD COLUMN finishes JSONB;
