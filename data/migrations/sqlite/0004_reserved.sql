-- 0004: reserved for the leaderboard migration written concurrently on another branch
-- (issue 27 numbered its own 0005). Deliberately empty; delete this file when that 0004
-- arrives, so the two do not share a number.
SELECT 1;
