-- 0010: an event's table row goes with the game it points at. `event_tables.table_id`
-- referenced `tables` with no delete rule, so deleting a server's tables (the purge of a
-- server the bot left) failed while an event's seating still pointed at one of them.

ALTER TABLE event_tables DROP CONSTRAINT event_tables_table_id_fkey;
ALTER TABLE event_tables ADD CONSTRAINT event_tables_table_id_fkey
    FOREIGN KEY (table_id) REFERENCES tables (id) ON DELETE CASCADE;
