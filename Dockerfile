# A small image that runs the server: python -m app migrates the database and serves.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY bench ./bench
RUN pip install --no-cache-dir --prefix=/install .
# The expert bot's native double-dummy search (app/bots/native/dd.c), as `make run` builds it:
# without it the expert plays its weaker pure-Python search.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && gcc -O2 -shared -fPIC app/bots/native/dd.c -o app/bots/native/_dd.so

FROM python:3.11-slim
RUN useradd --create-home --uid 1000 belote
WORKDIR /srv
COPY --from=build /install /usr/local
# Migrations are found next to the installed package's root: keep the repository layout.
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
COPY --from=build /src/app/bots/native/_dd.so ./app/bots/native/_dd.so
COPY static ./static
RUN mkdir -p /srv/data && chown belote /srv/data
USER belote
ENV BELOTE_HOST=0.0.0.0 BELOTE_PORT=8000
EXPOSE 8000
HEALTHCHECK CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('BELOTE_PORT', '8000') + '/healthz')"
CMD ["python", "-m", "app"]
