FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY canfield_site canfield_site
COPY games games
COPY leaderboard leaderboard
COPY manage.py ./
COPY scripts scripts
RUN pip install --no-cache-dir . \
    && DJANGO_DEBUG=0 DJANGO_SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home /app app \
    && chown -R app /app

USER app
EXPOSE 8000
ENV DJANGO_DEBUG=0 HTTP_BIND=0.0.0.0:8000
CMD ["bash", "scripts/serve-http.sh"]
