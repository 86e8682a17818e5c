"""The bot as a process: start-up, settings, the command line, health and metrics."""
