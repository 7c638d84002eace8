FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

# The sources (.dockerignore leaves out the venv, tests, caches and local data).
COPY . .
RUN pip install --no-cache-dir . \
    && DJANGO_DEBUG=0 DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home /app app \
    && chown -R app /app

USER app
EXPOSE 8000 8001
ENV DJANGO_DEBUG=0 HTTP_BIND=0.0.0.0:8000
CMD ["bash", "scripts/serve-http.sh"]
