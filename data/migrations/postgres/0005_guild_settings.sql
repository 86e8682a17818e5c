-- 0005: per-server defaults chosen with /shanghai settings (language, preset, buy window, turn
-- time, and later ones). One row per guild; `settings` is a JSON object the bot validates
-- (bot/guild_settings.py), so a new default needs no new column.

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    settings   JSONB  NOT NULL DEFAULT '{}'::jsonb,
    updated_at DOUBLE PRECISION NOT NULL
);
