"""The ground floor of ``bot/``: the helpers every room uses (logs, back-off, storage faults,
the error types a click is refused with). It imports nothing from the rest of ``bot/``, so any
room may import it without an arrow running back up."""
