-- 0003: a table can end as 'abandoned' (its channel or server went, or no person played for a
-- day), told apart from 'ended' (its host or a moderator closed it). Neither has results.
-- The inline CHECK of 0001 got PostgreSQL's default name, tables_status_check.

ALTER TABLE tables DROP CONSTRAINT tables_status_check;
ALTER TABLE tables ADD CONSTRAINT tables_status_check
    CHECK (status IN ('lobby', 'playing', 'finished', 'ended', 'abandoned'));
