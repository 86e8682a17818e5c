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

# The tested versions, with the PostgreSQL driver so that a postgresql:// SHANGHAI_DATABASE
# (or DATABASE_URL) works as well as the SQLite file on the volume.
COPY pyproject.toml constraints.txt README.md ./
COPY engine engine
COPY data data
COPY bot bot
RUN pip install --constraint constraints.txt '.[postgres]' \
    && useradd --system --uid 10001 --user-group --home-dir /app --no-create-home shanghai \
    && mkdir -p /app/var \
    && chown shanghai:shanghai /app/var

USER shanghai
VOLUME ["/app/var"]

# python -m bot handles SIGTERM itself: it finishes running clicks, sends the pending table
# edits and closes the database within 6 s, before Docker's 10 s kill.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]

CMD ["python", "-m", "bot"]
