FROM python:3.11-slim

RUN useradd --create-home --uid 1000 bondbot
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bondbot ./bondbot
RUN pip install --no-cache-dir .

USER bondbot
WORKDIR /data
VOLUME ["/data"]
# The token comes from the environment: docker run -e BONDBOT_TOKEN=... -v bondbot:/data
CMD ["bondbot", "run"]
