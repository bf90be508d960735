# An exact tag (Python patch release and Debian release): a rebuild gets the same base.
FROM python:3.11.14-slim-bookworm

# DejaVu Sans writes the chart's words (the font Pillow ships has no accents, no €). On
# 32-bit ARM (Raspberry Pi OS armv7: armhf) psycopg-binary has no wheel: the postgres extra
# installs plain psycopg there (pyproject.toml), which loads Debian's libpq.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
        $(case "$(dpkg --print-architecture)" in armhf|armel) echo libpq5;; esac) \
    && rm -rf /var/lib/apt/lists/*

# The bot's user, and the data folder it owns: created before USER, else a named volume
# would copy a root-owned /data and the bot could not create its database.
RUN useradd --create-home --uid 1000 bondbot \
    && mkdir /data && chown bondbot:bondbot /data

WORKDIR /app
# Dependencies first, from pyproject.toml alone: a change to the code reuses this layer.
# Optional extras, e.g. --build-arg EXTRAS=postgres (docker-compose.yml): PostgreSQL's
# driver; several: EXTRAS=a,b. eval7 (the `fast` extra, a C hand evaluator) has wheels
# for x86_64 only; elsewhere (ARM) the bot's pure-Python evaluator stands in, with no
# compiler needed.
ARG EXTRAS=""
COPY pyproject.toml ./
RUN python -c "import os, platform, tomllib; \
project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
extras = [name for name in os.environ.get('EXTRAS', '').split(',') if name.strip()]; \
extras += ['fast'] if platform.machine() == 'x86_64' else []; \
optional = project.get('optional-dependencies', {}); \
wanted = [line for name in extras for line in optional.get(name.strip(), [])]; \
print('\n'.join(project['dependencies'] + wanted))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt && rm /tmp/requirements.txt
COPY README.md LICENSE ./
COPY bondbot ./bondbot
RUN pip install --no-cache-dir --no-deps .

USER bondbot
# The database, and config.toml if you use one (/data/config.toml), live on this volume.
WORKDIR /data
VOLUME ["/data"]
# Healthy while the bot is connected to Discord (bondbot health reads a file it touches).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["bondbot", "health"]
# The token comes from the environment: docker run -e BONDBOT_TOKEN=... -v bondbot:/data,
# or from a file, out of `docker inspect`: -e BONDBOT_TOKEN_FILE=/run/secrets/token.
CMD ["bondbot", "run"]
