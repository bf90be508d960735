FROM python:3.11-slim

# DejaVu Sans writes the chart's words (the font Pillow ships has no accents, no €).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 bondbot
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bondbot ./bondbot
RUN pip install --no-cache-dir .
# Optional extras, e.g. --build-arg EXTRAS=postgres (docker-compose.yml): PostgreSQL's driver.
ARG EXTRAS=""
RUN if [ -n "$EXTRAS" ]; then pip install --no-cache-dir ".[$EXTRAS]"; fi

USER bondbot
WORKDIR /data
VOLUME ["/data"]
# The token comes from the environment: docker run -e BONDBOT_TOKEN=... -v bondbot:/data
CMD ["bondbot", "run"]
