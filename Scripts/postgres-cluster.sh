#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests and benchmarks (issue 12).
#
#   Scripts/postgres-cluster.sh start DIR   installs Debian's postgresql-15 when missing, creates a
#                                           cluster in DIR (initdb, as the postgres user when run as
#                                           root), starts it on 127.0.0.1 on a free port and prints
#                                           its URL (postgres://spotcheck:PASSWORD@127.0.0.1:PORT/spotcheck)
#   Scripts/postgres-cluster.sh stop DIR    stops it (fast shutdown) and removes DIR
#   Scripts/postgres-cluster.sh restart DIR stops and starts it again on the same port
#
# TCP logins need a password (SCRAM-SHA-256), so a wrong one is refused as on a real server.
set -euo pipefail
command=${1:?usage: postgres-cluster.sh start|stop|restart DIR}
dir=${2:?usage: postgres-cluster.sh start|stop|restart DIR}
bin=/usr/lib/postgresql/15/bin

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# pg_ctl ARGS…, as the cluster's owner, with no file descriptor inherited but the standard three:
# a caller that waits for this script through a descriptor of its own (Foundation's Process does)
# would otherwise wait for the server it starts too.
pg_ctl_detached() {
    local command=("$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" "$@")
    if [ "$(id -u)" -eq 0 ]; then command=(runuser -u postgres -- "${command[@]}"); fi
    python3 -c 'import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], close_fds=True))' "${command[@]}"
}

case "$command" in
start)
    if [ ! -x "$bin/initdb" ]; then
        "$(dirname "$0")/install-deps.sh" postgresql-15 >&2
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    password=$(python3 -c 'import secrets; print(secrets.token_hex(12))')
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    printf '%s\n' "$password" >"$dir/.password"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir/.password"; fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=spotcheck --pwfile="$dir/.password" \
        --auth-host=scram-sha-256 --auth-local=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
    pg_ctl_detached --wait start >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" --host="$dir" --port="$port" --username=spotcheck spotcheck
    echo "postgres://spotcheck:$password@127.0.0.1:$port/spotcheck"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
restart)
    pg_ctl_detached --mode=fast --wait restart >/dev/null
    ;;
*)
    echo "usage: postgres-cluster.sh start|stop|restart DIR" >&2
    exit 2
    ;;
esac
