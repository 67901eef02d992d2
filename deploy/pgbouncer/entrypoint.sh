#!/bin/sh
# Writes pgbouncer.ini and userlist.txt from the environment, then runs PgBouncer in the foreground.
# DB_HOST (db), DB_PORT (5432), DB_NAME (checkin), DB_USER (checkin), DB_PASSWORD (required),
# POOL_MODE (transaction), DEFAULT_POOL_SIZE (20), MAX_CLIENT_CONN (500), LISTEN_PORT (6432).
set -eu
: "${DB_PASSWORD:?DB_PASSWORD is required}"
conf=/tmp/pgbouncer
mkdir -p "$conf"
umask 077
printf '"%s" "%s"\n' "${DB_USER:-checkin}" "$DB_PASSWORD" > "$conf/userlist.txt"
cat > "$conf/pgbouncer.ini" <<INI
[databases]
${DB_NAME:-checkin} = host=${DB_HOST:-db} port=${DB_PORT:-5432} dbname=${DB_NAME:-checkin}

[pgbouncer]
listen_addr = 0.0.0.0
listen_port = ${LISTEN_PORT:-6432}
auth_type = scram-sha-256
auth_file = $conf/userlist.txt
pool_mode = ${POOL_MODE:-transaction}
default_pool_size = ${DEFAULT_POOL_SIZE:-20}
max_client_conn = ${MAX_CLIENT_CONN:-500}
ignore_startup_parameters = extra_float_digits,options
server_reset_query_always = 0
INI
exec pgbouncer "$conf/pgbouncer.ini"
