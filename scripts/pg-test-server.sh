#!/usr/bin/env bash
# A throwaway PostgreSQL server for the results-store tests: its own cluster in DIR, reached only
# through a Unix socket in DIR (no TCP port to collide with anything), trust authentication,
# fsync off. Nothing here is fit for keeping data; stop deletes it.
#
#   scripts/pg-test-server.sh start DIR   # prints the database URL (for CIPHERBENCH_TEST_PG_URL)
#   scripts/pg-test-server.sh stop DIR
#
# Needs the Debian `postgresql` package (scripts/setup.sh installs it when
# CIPHERBENCH_WITH_POSTGRES=1). initdb refuses to run as root, so as root the server runs as the
# `postgres` user that package creates.
set -euo pipefail
action=${1:?usage: $0 start|stop DIR}
dir=${2:?usage: $0 start|stop DIR}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [[ -z "$bindir" || ! -x "$bindir/initdb" ]]; then
  echo "pg-test-server: no PostgreSQL server installed; install the Debian package postgresql" >&2
  exit 1
fi
as_pg=()
[[ $(id -u) -eq 0 ]] && as_pg=(runuser -u postgres --)

case "$action" in
  start)
    mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    "${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    "${as_pg[@]}" "$bindir/createdb" -h "$dir" -U postgres cipherbench_test
    echo "postgresql://postgres@/cipherbench_test?host=$dir"
    ;;
  stop)
    if [[ -f "$dir/data/postmaster.pid" ]]; then
      "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
