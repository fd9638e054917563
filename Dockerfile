# The advisor image used by compose.yaml (web replicas and the Slack bot).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ADVISOR_HOME=/data ADVISOR_CACHE_DIR=/cache
WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules rules
COPY knowledge knowledge
COPY agent agent
COPY ui ui
COPY evals evals
RUN python -m pip install --no-cache-dir -U pip && pip install --no-cache-dir '.[team]'
RUN useradd --create-home --uid 10001 advisor && mkdir -p /data /cache && chown advisor /data /cache
USER advisor
EXPOSE 7860
CMD ["advisor", "web", "--host", "0.0.0.0", "--port", "7860"]
