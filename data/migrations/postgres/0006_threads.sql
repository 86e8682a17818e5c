-- 0006: a game played in a thread. When a game starts in a thread made from its
-- lobby message, `channel_id` becomes the thread (where the table message, pings and notices
-- go, and what a channel-wide lookup finds) and `parent_channel_id` keeps the channel the
-- lobby was opened in, which gets the one result message at the end. NULL: no thread.

ALTER TABLE tables ADD COLUMN parent_channel_id BIGINT;
