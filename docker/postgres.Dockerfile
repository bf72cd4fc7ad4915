# The database set's PostgreSQL (docs/database.md), built locally like the lab's other images:
#   docker build -f docker/postgres.Dockerfile .
# Debian's PostgreSQL 15 with the set's table loaded at build time (db-common's account.sql: 100,000 rows), the role
# lab with trust authentication, listening on every address of the container: the Compose file publishes no port of
# it, so only the stack's own network reaches it (docker compose exec postgres psql -h /tmp -U lab lab, from the host).

# The base image, official by default (a build argument for a registry mirror or a stand-in of the same Debian).
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${BASE_IMAGE}
# No cluster of the package's own: the lab's is made below.
RUN mkdir -p /etc/postgresql-common \
 && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/lab-db && chown postgres:postgres /var/lib/lab-db
COPY db-common/src/main/resources/lab-db/account.sql /opt/lab-db/account.sql
USER postgres
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/lab-db/cluster
# The cluster as the lab makes its own (lab.launch.Postgres): role lab, trust, UTF-8; any address of the stack's
# network may connect. The table is loaded once, here, so a start is only PostgreSQL's own.
RUN initdb -D "$PGDATA" -U lab --auth=trust -E UTF8 --locale=C --no-sync >/dev/null \
 && echo "host all all 0.0.0.0/0 trust" >> "$PGDATA/pg_hba.conf" \
 && pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/tmp" -w start >/dev/null \
 && psql -X -q -h /tmp -U lab -d postgres -c "CREATE DATABASE lab" \
 && psql -X -q -h /tmp -U lab -d lab -v ON_ERROR_STOP=1 -f /opt/lab-db/account.sql \
 && pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
# Connections for every pool of the set at once (four services; LAB_DB_MAX_CONNECTIONS in the Compose file).
ENV MAX_CONNECTIONS=250
EXPOSE 5432
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=5 \
  CMD pg_isready -q -h 127.0.0.1 -U lab -d lab
ENTRYPOINT ["sh", "-c", "exec postgres -D \"$PGDATA\" -c listen_addresses='*' -c unix_socket_directories=/tmp -c max_connections=$MAX_CONNECTIONS"]
