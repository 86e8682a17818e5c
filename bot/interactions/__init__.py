"""Where a click is answered: the error handler, the guards every callback runs, permissions."""
