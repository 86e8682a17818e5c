"""The bot as a process: start-up, settings, the command line, logs, health and metrics."""
