# Two stages: `build` has a C compiler, installs the locked dependencies (hashes checked) and
# builds the project's C extensions; `runtime` gets the result and no compiler. Dependencies are
# installed before the sources are copied, so a code change reuses that layer.
FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /venv
ENV PATH=/venv/bin:$PATH

COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock

# The sources (.dockerignore leaves out the venv, tests, caches and local data), installed as
# `make setup` does: editable, no dependencies, built with the locked setuptools.
WORKDIR /app
COPY . .
RUN pip install --no-deps --no-build-isolation -e . \
    && pip check \
    && DJANGO_DEBUG=0 DJANGO_SECRET_KEY=build-only DAILY_SECRET=build-only \
        python manage.py collectstatic --noinput


FROM python:3.11-slim AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/venv/bin:$PATH
# PgBouncer for the compose file's `pgbouncer` service (scripts/serve-pgbouncer.sh), from this
# image; Cairo and a font for the result cards (web/cards.py, CairoSVG); /metrics is where the
# app's processes count their metrics (a volume in compose).
RUN apt-get update \
    && apt-get install -y --no-install-recommends pgbouncer libcairo2 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --home /app app \
    && mkdir /metrics && chown app /metrics
COPY --from=build /venv /venv
COPY --from=build /app /app
WORKDIR /app

USER app
EXPOSE 8000 8001
ENV DJANGO_DEBUG=0 HTTP_BIND=0.0.0.0:8000
CMD ["bash", "scripts/serve-http.sh"]
