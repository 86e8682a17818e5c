"""What keeps a channel current: the table message, its outbox, the hands that follow, threads."""
