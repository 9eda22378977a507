#!/bin/sh
# Start or stop a private PostgreSQL on loopback, for the scaled-out setup and for tests.
#
#   deploy/postgres.sh start [--fast] [--listen ADDR/PREFIX]... [DIR]
#                                    initdb in DIR (default: a new /tmp/jpgXXXX), start it on a
#                                    free 127.0.0.1 port, create database "judge"; prints
#                                    PG_DIR=..., PG_PORT=..., DATABASE_URL=... for `eval`.
#   deploy/postgres.sh stop DIR      fast shutdown by the cluster's own pid file.
#
# --fast turns fsync and synchronous commit off: for tests and benchmarks, where the database
# server itself is never crashed and a power loss does not matter. Never for real games.
# --listen 169.254.40.1/24 also listens on that address and lets every client of that network
# in without a password, as loopback clients are: for judge hosts on a private test network
# (tests/e2e/test_two_hosts.py), never for a network anyone else can reach.
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
# No file under /etc is read or changed and no system cluster is touched.
set -eu

find_bin() {
    if command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
        return
    fi
    # Debian keeps the server binaries off PATH, one folder per major version: take the newest.
    latest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$latest" ]; then
        echo "postgres.sh: no pg_ctl found (apt-get install postgresql)" >&2
        exit 1
    fi
    echo "$latest"
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

BIN=$(find_bin)
cmd=${1:-}

case "$cmd" in
start)
    shift
    fast=""
    listen="127.0.0.1"
    networks=""
    while [ $# -gt 0 ]; do
        case "$1" in
        --fast)
            fast="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            shift
            ;;
        --listen)
            network=${2:?--listen needs ADDR/PREFIX}
            listen="$listen,${network%/*}"
            networks="$networks $network"
            shift 2
            ;;
        *)
            break
            ;;
        esac
    done
    dir=${1:-}
    if [ -z "$dir" ]; then
        dir=$(mktemp -d /tmp/jpgXXXXXX)
    fi
    mkdir -p "$dir"
    chmod 0711 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale \
            --no-sync >"$dir/initdb.log" 2>&1
    fi
    for network in $networks; do
        line="host all all $network trust"
        grep -qxF "$line" "$dir/data/pg_hba.conf" || echo "$line" >>"$dir/data/pg_hba.conf"
    done
    port=$(free_port)
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
        -o "-c listen_addresses=$listen -p $port -k $dir -c max_connections=200 $fast" \
        start >/dev/null
    "$BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres judge 2>/dev/null || true
    echo "$port" >"$dir/port"
    echo "PG_DIR=$dir"
    echo "PG_PORT=$port"
    echo "DATABASE_URL=postgresql://postgres@127.0.0.1:$port/judge"
    ;;
stop)
    dir=${2:?usage: postgres.sh stop DIR}
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    fi
    ;;
*)
    echo "usage: postgres.sh start [--fast] [--listen ADDR/PREFIX]... [DIR] | stop DIR" >&2
    exit 2
    ;;
esac
