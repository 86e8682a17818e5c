# The bot in a container: slim Python, an unprivileged user, the database on a volume.
#   docker build -t shanghai . && docker run --env-file .env -v shanghai-var:/app/var shanghai
# or `docker compose up -d` (compose.yaml). The games live in /app/var: keep that volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The defaults SHANGHAI_DATABASE=var/shanghai.sqlite3 and SHANGHAI_HEARTBEAT=var/heartbeat are
# relative to this folder, so both land on the volume below.
WORKDIR /app

# The dependencies first, in a layer of their own: the tested versions, with the PostgreSQL
# driver so that a postgresql:// SHANGHAI_DATABASE (or DATABASE_URL) works as well as the
# SQLite file on the volume, and prometheus-client so that SHANGHAI_METRICS_PORT works (an
# image cannot be given an extra later; a plain `pip install .` stays without either). This
# layer is rebuilt only when pyproject.toml or constraints.txt change: empty packages stand in
# for the code, and the project itself is uninstalled again.
COPY pyproject.toml constraints.txt README.md ./
RUN mkdir engine data bot \
    && touch engine/__init__.py data/__init__.py bot/__init__.py \
    && pip install --constraint constraints.txt '.[postgres,metrics]' \
    && pip uninstall --yes shanghai \
    && rm -rf engine data bot build ./*.egg-info \
    && useradd --system --uid 10001 --user-group --home-dir /app --no-create-home shanghai \
    && mkdir -p /app/var \
    && chown shanghai:shanghai /app/var

# Then the code: a change here rebuilds only these layers (the install takes no download).
COPY engine engine
COPY data data
COPY bot bot
RUN pip install --no-deps --constraint constraints.txt . && rm -rf build ./*.egg-info

USER shanghai
VOLUME ["/app/var"]

# python -m bot handles SIGTERM itself: it finishes running clicks, sends the pending table
# edits and closes the database within 6 s, before Docker's 10 s kill.
STOPSIGNAL SIGTERM
# The probe reads the heartbeat file's age with the standard library only (about 0.06 s and
# 20 MB a run, not the bot's own imports).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.process.health"]

CMD ["python", "-m", "bot"]
