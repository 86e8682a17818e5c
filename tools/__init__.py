"""Tools beside the product: benchmarks, soaks, simulations and a throwaway PostgreSQL.

Nothing here is installed with the package (``pyproject.toml`` finds only ``engine``, ``bot``
and ``data``) and no product module imports it (``tests/test_layering.py``). Run each from the
repository's root, e.g. ``python -m tools.bench_play``; they may use the development
dependencies (simcord) that the bot itself never needs.
"""
