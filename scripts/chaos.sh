#!/usr/bin/env bash
# The chaos harness (issue 21 point 4, docs/reliability.md "Chaos"): every target as its own
# process on PostgreSQL + RabbitMQ + S3 (moto), under a mixed load, while processes are killed
# with SIGKILL and PostgreSQL and RabbitMQ are restarted, round after round; then it checks that
# nothing was lost, duplicated or left running.
#
# Usage: scripts/chaos.sh [--rounds N]        run the harness (default 3 rounds)
#        scripts/chaos.sh restart-postgres    (used by the harness) restart its PostgreSQL
#        scripts/chaos.sh restart-rabbitmq    (used by the harness) restart its RabbitMQ app
#        scripts/chaos.sh stop                stop the harness's PostgreSQL and RabbitMQ
#
# The harness gets a PostgreSQL cluster and a RabbitMQ node of its own, on their own ports and
# with their data under CHAOS_DIR, so restarting them never breaks the tests other people run
# against the shared servers of scripts/services.sh (which it only uses for moto_server, never
# restarted). They are started with the same tools services.sh uses (the PostgreSQL 15 binaries,
# rabbitmq-server; RabbitMQ is restarted with `rabbitmqctl stop_app` + `start_app` like
# `services.sh restart-rabbitmq`) and stopped at the end.
#
# Settings (environment):
#   CHAOS_DIR             state of the private servers (default /tmp/scribevault-chaos)
#   CHAOS_PG_PORT         their PostgreSQL port (default 55439)
#   CHAOS_RABBITMQ_PORT   their RabbitMQ port (default 55679; distribution port +1)
#   SCRIBEVAULT_CHAOS_ROUNDS  rounds when --rounds is not given
set -euo pipefail

export PATH="/usr/local/sbin:/usr/sbin:/sbin:${PATH}"
root="$(cd "$(dirname "$0")/.." && pwd)"
readonly root
readonly CHAOS_DIR="${CHAOS_DIR:-/tmp/scribevault-chaos}"
readonly PG_PORT="${CHAOS_PG_PORT:-55439}"
readonly RABBITMQ_PORT="${CHAOS_RABBITMQ_PORT:-55679}"
readonly HOST=127.0.0.1
readonly PG_BIN=/usr/lib/postgresql/15/bin
readonly PG_DATA="${CHAOS_DIR}/postgres"
readonly RABBITMQ_BASE="${CHAOS_DIR}/rabbitmq"
# A node of its own (name, ports, database, logs; no plugins, since the shared node's management
# plugin would want the same HTTP port), given only to the RabbitMQ commands run here:
# exported, these would leak into scripts/services.sh and its shared node.
rabbit() {
    env RABBITMQ_NODENAME="scribevault-chaos@localhost" \
        RABBITMQ_NODE_IP_ADDRESS="${HOST}" \
        RABBITMQ_NODE_PORT="${RABBITMQ_PORT}" \
        RABBITMQ_DIST_PORT="$((RABBITMQ_PORT + 1))" \
        RABBITMQ_MNESIA_BASE="${RABBITMQ_BASE}/mnesia" \
        RABBITMQ_LOG_BASE="${RABBITMQ_BASE}/log" \
        RABBITMQ_PID_FILE="${RABBITMQ_BASE}/node.pid" \
        RABBITMQ_ENABLED_PLUGINS_FILE="${RABBITMQ_BASE}/enabled_plugins" \
        "$@"
}
log() { printf 'chaos: %s\n' "$*" >&2; }
die() {
    printf 'chaos: ERROR: %s\n' "$*" >&2
    exit 1
}

port_open() { (exec 3<>"/dev/tcp/${HOST}/$1") 2>/dev/null; }

wait_until() {
    local what="$1" timeout="$2"
    shift 2
    local deadline=$((SECONDS + timeout))
    until "$@"; do
        ((SECONDS < deadline)) || die "${what} not ready after ${timeout}s"
        sleep 0.2
    done
}

pg_ready() { "${PG_BIN}/pg_isready" -q -h "${HOST}" -p "${PG_PORT}"; }
as_postgres() { runuser -u postgres -- "$@"; }

start_postgres() {
    if pg_ready; then return; fi
    if [[ ! -f "${PG_DATA}/PG_VERSION" ]]; then
        mkdir -p "${PG_DATA}"
        chown postgres: "${CHAOS_DIR}" "${PG_DATA}"
        log "initdb ${PG_DATA}"
        # Trust on loopback: a throw-away cluster for one run; the role the services use.
        as_postgres "${PG_BIN}/initdb" -D "${PG_DATA}" -U scribevault --auth=trust >"${CHAOS_DIR}/initdb.log" 2>&1 ||
            { cat "${CHAOS_DIR}/initdb.log" >&2; die "initdb failed"; }
    fi
    log "starting postgres on ${HOST}:${PG_PORT}"
    as_postgres "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -l "${CHAOS_DIR}/postgres.log" -w -t 60 \
        -o "-p ${PG_PORT} -c listen_addresses=${HOST} -k ${PG_DATA} -c max_connections=200 -c fsync=on" \
        start >/dev/null || { tail -20 "${CHAOS_DIR}/postgres.log" >&2; die "postgres did not start"; }
    wait_until postgres 60 pg_ready
}

stop_postgres() {
    if [[ -f "${PG_DATA}/postmaster.pid" ]]; then
        as_postgres "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -m fast -w stop >/dev/null 2>&1 || true
    fi
}

# A fast shutdown (sessions cut, a checkpoint) and a start, as an operator's restart or a
# failover does it; the services must reconnect by themselves.
restart_postgres() {
    as_postgres "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -l "${CHAOS_DIR}/postgres.log" -m fast -w -t 60 \
        -o "-p ${PG_PORT} -c listen_addresses=${HOST} -k ${PG_DATA} -c max_connections=200" \
        restart >/dev/null || { tail -20 "${CHAOS_DIR}/postgres.log" >&2; die "postgres did not restart"; }
    wait_until postgres 60 pg_ready
}

rabbitmq_ready() { port_open "${RABBITMQ_PORT}" && rabbit rabbitmqctl -q status >/dev/null 2>&1; }

start_rabbitmq() {
    if rabbitmq_ready; then return; fi
    mkdir -p "${RABBITMQ_BASE}/mnesia" "${RABBITMQ_BASE}/log"
    echo '[].' >"${RABBITMQ_BASE}/enabled_plugins"
    chown -R rabbitmq: "${RABBITMQ_BASE}"
    log "starting rabbitmq scribevault-chaos@localhost on ${HOST}:${RABBITMQ_PORT} (about 10 s)"
    rabbit setsid rabbitmq-server >"${CHAOS_DIR}/rabbitmq.log" 2>&1 </dev/null &
    wait_until rabbitmq 90 rabbitmq_ready
}

stop_rabbitmq() {
    if rabbit rabbitmqctl -q status >/dev/null 2>&1; then
        rabbit rabbitmqctl -q stop >/dev/null 2>&1 || true
    fi
}

# What `scripts/services.sh restart-rabbitmq` does: the broker goes away (every connection is
# closed) and comes back with its durable queues and persistent messages.
restart_rabbitmq() {
    rabbit rabbitmqctl -q stop_app >/dev/null
    rabbit rabbitmqctl -q start_app >/dev/null
    wait_until rabbitmq 60 rabbitmq_ready
}

run() {
    local rounds="$1"
    [[ "${rounds}" =~ ^[0-9]+$ ]] && ((rounds > 0)) || die "--rounds needs a positive number"
    mkdir -p "${CHAOS_DIR}"
    # moto_server (and the tools) from the shared set-up; PostgreSQL and RabbitMQ of our own.
    "${root}/scripts/services.sh" install
    "${root}/scripts/services.sh" start
    eval "$("${root}/scripts/services.sh" env)"
    "${root}/scripts/install-media-tools.sh" >/dev/null
    SCRIBEVAULT_TEST_YTDLP="$("${root}/scripts/install-media-tools.sh" --print-ytdlp)"
    export SCRIBEVAULT_TEST_YTDLP
    start_postgres
    start_rabbitmq
    trap 'stop_rabbitmq; stop_postgres' EXIT
    export SCRIBEVAULT_CHAOS_ROUNDS="${rounds}"
    export SCRIBEVAULT_CHAOS_POSTGRES_URL="postgres://scribevault@${HOST}:${PG_PORT}/postgres"
    export SCRIBEVAULT_CHAOS_AMQP_URL="amqp://guest:guest@${HOST}:${RABBITMQ_PORT}/%2f"
    export SCRIBEVAULT_CHAOS_CONTROL="${root}/scripts/chaos.sh"
    export CHAOS_DIR CHAOS_PG_PORT="${PG_PORT}" CHAOS_RABBITMQ_PORT="${RABBITMQ_PORT}"
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scribevault/target}"
    cd "${root}"
    # The harness is an ignored test so that `cargo nextest run --workspace` never runs it
    # beside other tests; here it runs alone, with its output shown. `--workspace` with a filter
    # (not `-p scribevault`) builds with the workspace's feature set, so after test-all.sh's
    # main step nothing is rebuilt.
    cargo nextest run --workspace -E 'package(scribevault) and binary(chaos)' --run-ignored only \
        --no-capture --no-fail-fast --final-status-level fail
}

main() {
    local rounds="${SCRIBEVAULT_CHAOS_ROUNDS:-3}"
    case "${1:-}" in
        restart-postgres) restart_postgres; return ;;
        restart-rabbitmq) restart_rabbitmq; return ;;
        stop) stop_rabbitmq; stop_postgres; return ;;
        --rounds)
            (($# == 2)) || die "usage: $0 [--rounds N]"
            rounds="$2"
            ;;
        "") ;;
        *) die "usage: $0 [--rounds N] | restart-postgres | restart-rabbitmq | stop" ;;
    esac
    run "${rounds}"
}

main "$@"
