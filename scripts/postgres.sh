#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL 15 cluster: `bash scripts/postgres.sh npx vitest run …`.
# The cluster lives in a fresh temporary folder, listens on a free port of 127.0.0.1 only (its unix socket inside that
# folder), and has a role and database for the tests, named in BLOGDESK_TEST_POSTGRES_URL; the role may create
# databases, so each test store gets its own (src-service/testing/postgres.ts). Whatever happens, the cluster is
# stopped and its folder removed at the end, and the command's exit status is this script's.
# PostgreSQL's initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
# BLOGDESK_POSTGRES_BIN names another folder of PostgreSQL's programs (Debian's 15 by default).
# The cluster does not fsync: that only matters when the machine itself fails, which no test does, and it makes each
# test's CREATE DATABASE several times faster. Benchmarks comparing PostgreSQL with SQLite (which does sync) set
# BLOGDESK_POSTGRES_DURABLE=1 so both pay for durability.
set -euo pipefail

bin=${BLOGDESK_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
if [ $# -eq 0 ]; then
  echo "usage: scripts/postgres.sh COMMAND [ARGS…]  (runs COMMAND with BLOGDESK_TEST_POSTGRES_URL set)" >&2
  exit 2
fi
if [ ! -x "$bin/initdb" ]; then
  echo "postgres.sh: PostgreSQL is not installed ($bin/initdb is missing)." >&2
  echo "postgres.sh: install Debian's package (sudo apt-get install postgresql), as .ci/run does, then run this again." >&2
  exit 1
fi

as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "postgres.sh: running as root, but there is no 'postgres' user to own the cluster (Debian's postgresql package creates it)." >&2
    exit 1
  fi
  as_owner=(runuser -u postgres --)
fi

folder=$(mktemp -d "${TMPDIR:-/tmp}/blogdesk-postgres.XXXXXX")
started=no
stop_cluster() {
  if [ "$started" = yes ]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 ||
      "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$folder"
}
trap stop_cluster EXIT
# An interrupted run still ends through the EXIT trap, with the shell's usual status.
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$folder/socket"
[ ${#as_owner[@]} -eq 0 ] || chown -R postgres:postgres "$folder"

durable=no
[ "${BLOGDESK_POSTGRES_DURABLE:-}" != 1 ] || durable=yes
initdb_sync=(--no-sync)
[ "$durable" = no ] || initdb_sync=()
"${as_owner[@]}" "$bin/initdb" -D "$folder/data" --username=postgres --auth-local=trust --auth-host=scram-sha-256 \
  --encoding=UTF8 --locale=C.UTF-8 "${initdb_sync[@]}" >"$folder/initdb.log" 2>&1 || {
  cat "$folder/initdb.log" >&2
  echo "postgres.sh: initdb failed (above)." >&2
  exit 1
}

# A port the kernel says is free right now; another program could take it before PostgreSQL does, hence the retries.
free_port() {
  node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
}
durability="-c fsync=off -c full_page_writes=off"
[ "$durable" = no ] || durability=""
for attempt in 1 2 3; do
  port=$(free_port)
  if "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$folder/socket -c max_connections=300 $durability" \
    >/dev/null 2>&1; then
    started=yes
    break
  fi
done
if [ "$started" != yes ]; then
  cat "$folder/server.log" >&2 || true
  echo "postgres.sh: PostgreSQL did not start (its log is above)." >&2
  exit 1
fi

# pg_signal_backend: a test's DROP DATABASE … WITH (FORCE) must also end an autovacuum worker that happens to be busy in
# that database, and such a worker runs as no role, so without it the drop fails now and then ("must be a member of the
# role whose process is being terminated").
password=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
"${as_owner[@]}" "$bin/psql" -q -h "$folder/socket" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE blogdesk LOGIN CREATEDB PASSWORD '$password'" \
  -c "GRANT pg_signal_backend TO blogdesk" \
  -c "CREATE DATABASE blogdesk OWNER blogdesk" >/dev/null

export BLOGDESK_TEST_POSTGRES_URL="postgres://blogdesk:$password@127.0.0.1:$port/blogdesk"
echo "postgres.sh: PostgreSQL on 127.0.0.1:$port (cluster in $folder)" >&2
# In the background, so a signal to this script is acted on at once (bash runs traps only between commands): it is
# passed on to the command, which is waited for, and the cluster then goes as usual. `<&0` keeps the terminal's input.
"$@" <&0 &
command_pid=$!
trap 'kill -INT "$command_pid" 2>/dev/null; wait "$command_pid"; exit 130' INT
trap 'kill -TERM "$command_pid" 2>/dev/null; wait "$command_pid"; exit 143' TERM
set +e
wait "$command_pid"
status=$?
set -e
exit $status
