#!/usr/bin/env bash
# Installs, starts and stops the real backing services the conformance and
# integration tests run against: PostgreSQL 15, Redis, RabbitMQ and an
# S3-compatible server (moto_server). There is no Docker engine and no systemd
# on our machines (STYLE.md 4.4), so every service runs as a plain process on
# loopback, started here by hand.
#
# Usage: scripts/services.sh install|start|stop|status|env|restart-rabbitmq
#
#   install           apt/pip install what is missing (a fast no-op when all is there)
#   start             start whatever does not already answer, then wait until ready
#   stop              stop all four
#   status            one line per service: up or down
#   env               print `export SCRIBEVAULT_TEST_*=...` lines for `eval "$(...)"`
#   restart-rabbitmq  rabbitmqctl stop_app + start_app, then wait until ready
#                     (tests use it to check reconnection)
#
# Settings (environment):
#   SCRIBEVAULT_SERVICES_DIR  pid and log files (default /tmp/scribevault-services)
#   SERVICES_TIMEOUT          seconds to wait for each service (default 60)
set -euo pipefail

# apt installs into /usr/sbin, which a non-login shell may not have on PATH.
export PATH="/usr/local/sbin:/usr/sbin:/sbin:${PATH}"

readonly STATE_DIR="${SCRIBEVAULT_SERVICES_DIR:-/tmp/scribevault-services}"
readonly TIMEOUT="${SERVICES_TIMEOUT:-60}"
readonly HOST=127.0.0.1

readonly PG_VERSION=15
readonly PG_CLUSTER=main
readonly PG_PORT=5432
readonly PG_ROLE=scribevault
readonly PG_PASSWORD=scribevault

readonly REDIS_PORT=6379

readonly RABBITMQ_PORT=5672
export RABBITMQ_NODENAME=rabbit@localhost

readonly MOTO_PORT=5000

readonly APT_PACKAGES=(postgresql redis-server rabbitmq-server)

log() { printf 'services: %s\n' "$*" >&2; }
die() {
    printf 'services: ERROR: %s\n' "$*" >&2
    exit 1
}

# True when something accepts TCP connections on HOST:$1.
port_open() {
    (exec 3<>"/dev/tcp/${HOST}/$1") 2>/dev/null
}

port_closed() {
    ! port_open "$1"
}

# wait_until MESSAGE TIMEOUT CMD...: polls CMD every 0.3 s, logs MESSAGE once it
# succeeds, returns 1 after TIMEOUT seconds (callers then fail naming the service).
wait_until() {
    local message="$1" timeout="$2"
    shift 2
    local deadline=$((SECONDS + timeout))
    until "$@"; do
        if ((SECONDS >= deadline)); then
            return 1
        fi
        sleep 0.3
    done
    log "${message}"
}

# fail_with_log NAME LOGFILES MESSAGE: dies after showing the end of the first
# non-empty file among LOGFILES (space-separated).
fail_with_log() {
    local name="$1" logfiles="$2" message="$3" logfile
    for logfile in ${logfiles}; do
        if [[ -s "${logfile}" ]]; then
            printf 'services: last lines of %s:\n' "${logfile}" >&2
            tail -n 20 "${logfile}" >&2 || true
            break
        fi
    done
    die "${name}: ${message}"
}

# True when FILE names a running process.
pidfile_alive() {
    [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

# Kills the process whose pid is in FILE (if it still runs) and removes FILE.
kill_pidfile() {
    local pidfile="$1" pid
    [[ -f "${pidfile}" ]] || return 0
    pid="$(cat "${pidfile}")"
    if [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null; then
        kill "${pid}" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "${pid}" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "${pid}" 2>/dev/null || true
    fi
    rm -f "${pidfile}"
}

# --------------------------------------------------------------------------
# install

apt_installed() {
    dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed
}

# moto before 5.2.5 answers CompleteMultipartUpload with the wrong XML root, which aws-sdk-s3
# rejects; insist on a version that speaks S3 multipart correctly.
moto_usable() {
    python3 -c 'import moto.server, moto; v = tuple(int(p) for p in moto.__version__.split(".")[:3]); raise SystemExit(v < (5, 2, 5))' >/dev/null 2>&1
}

cmd_install() {
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do
        apt_installed "${pkg}" || missing+=("${pkg}")
    done
    if ((${#missing[@]} > 0)); then
        log "apt-get install ${missing[*]}"
        # Keep postinst scripts from starting the services with their packaged
        # (persistent, 0.0.0.0) settings: we start them ourselves below.
        local made_policy=0
        if [[ ! -e /usr/sbin/policy-rc.d ]]; then
            printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
            chmod +x /usr/sbin/policy-rc.d
            made_policy=1
        fi
        export DEBIAN_FRONTEND=noninteractive
        mkdir -p "${STATE_DIR}"
        local apt_log="${STATE_DIR}/apt.log" apt_rc=0
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
            >"${apt_log}" 2>&1 || apt_rc=$?
        if ((made_policy)); then rm -f /usr/sbin/policy-rc.d; fi
        ((apt_rc == 0)) || fail_with_log apt "${apt_log}" "apt-get install ${missing[*]} failed (rc ${apt_rc})"
    fi
    if ! moto_usable; then
        log "pip install moto[server]"
        python3 -m pip install -q --disable-pip-version-check 'moto[server]>=5.2.5'
        moto_usable || die "moto_server: 'import moto.server' still fails after pip install"
    fi
    log "install ok"
}

# --------------------------------------------------------------------------
# PostgreSQL

pg_ready() {
    pg_isready -q -h "${HOST}" -p "${PG_PORT}"
}

psql_as_postgres() {
    runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "${PG_PORT}" "$@"
}

start_postgres() {
    if pg_ready; then
        log "postgres already up on ${HOST}:${PG_PORT}"
    else
        if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "${PG_VERSION}/${PG_CLUSTER}"; then
            log "creating cluster ${PG_VERSION}/${PG_CLUSTER}"
            pg_createcluster --port "${PG_PORT}" "${PG_VERSION}" "${PG_CLUSTER}" >/dev/null
        fi
        log "starting postgres ${PG_VERSION}/${PG_CLUSTER}"
        pg_ctlcluster "${PG_VERSION}" "${PG_CLUSTER}" start ||
            fail_with_log postgres "/var/log/postgresql/postgresql-${PG_VERSION}-${PG_CLUSTER}.log" \
                "pg_ctlcluster ${PG_VERSION} ${PG_CLUSTER} start failed"
        wait_until "postgres ready" "${TIMEOUT}" pg_ready ||
            fail_with_log postgres "/var/log/postgresql/postgresql-${PG_VERSION}-${PG_CLUSTER}.log" \
                "not ready on ${HOST}:${PG_PORT} after ${TIMEOUT}s"
    fi
    # The test role: created once, its attributes and password enforced each time.
    local exists
    exists="$(psql_as_postgres -tA -c "SELECT 1 FROM pg_roles WHERE rolname = '${PG_ROLE}'")"
    if [[ "${exists}" != 1 ]]; then
        log "creating role ${PG_ROLE}"
        psql_as_postgres -c "CREATE ROLE ${PG_ROLE} LOGIN CREATEDB PASSWORD '${PG_PASSWORD}'"
    else
        psql_as_postgres -c "ALTER ROLE ${PG_ROLE} LOGIN CREATEDB PASSWORD '${PG_PASSWORD}'"
    fi
}

stop_postgres() {
    if pg_ctlcluster "${PG_VERSION}" "${PG_CLUSTER}" status >/dev/null 2>&1; then
        log "stopping postgres"
        pg_ctlcluster "${PG_VERSION}" "${PG_CLUSTER}" stop -m fast
    fi
}

# --------------------------------------------------------------------------
# Redis

redis_ready() {
    [[ "$(redis-cli -h "${HOST}" -p "${REDIS_PORT}" ping 2>/dev/null)" == PONG ]]
}

start_redis() {
    if redis_ready; then
        log "redis already up on ${HOST}:${REDIS_PORT}"
        return
    fi
    log "starting redis"
    # No RDB snapshots and no AOF: test data never needs to survive a restart.
    redis-server --bind "${HOST}" --port "${REDIS_PORT}" \
        --save '' --appendonly no --daemonize yes \
        --dir "${STATE_DIR}" \
        --pidfile "${STATE_DIR}/redis.pid" \
        --logfile "${STATE_DIR}/redis.log" ||
        fail_with_log redis "${STATE_DIR}/redis.log" "redis-server failed to start"
    wait_until "redis ready" "${TIMEOUT}" redis_ready ||
        fail_with_log redis "${STATE_DIR}/redis.log" "not ready on ${HOST}:${REDIS_PORT} after ${TIMEOUT}s"
}

stop_redis() {
    if [[ -f "${STATE_DIR}/redis.pid" ]]; then
        log "stopping redis"
        kill_pidfile "${STATE_DIR}/redis.pid"
    elif redis_ready; then
        log "stopping redis (no pid file; SHUTDOWN NOSAVE)"
        redis-cli -h "${HOST}" -p "${REDIS_PORT}" shutdown nosave >/dev/null 2>&1 || true
    fi
}

# --------------------------------------------------------------------------
# RabbitMQ

rabbitmq_ready() {
    port_open "${RABBITMQ_PORT}" && rabbitmqctl -q status >/dev/null 2>&1
}

wait_rabbitmq() {
    wait_until "rabbitmq ready" "${TIMEOUT}" rabbitmq_ready ||
        fail_with_log rabbitmq "${STATE_DIR}/rabbitmq.log /var/log/rabbitmq/${RABBITMQ_NODENAME}.log" \
            "not ready on ${HOST}:${RABBITMQ_PORT} after ${TIMEOUT}s"
}

start_rabbitmq() {
    if port_open "${RABBITMQ_PORT}"; then
        log "rabbitmq already up on ${HOST}:${RABBITMQ_PORT}"
        return
    fi
    if pidfile_alive "${STATE_DIR}/rabbitmq.pid"; then
        log "rabbitmq still booting from an earlier start; waiting"
        wait_rabbitmq
        return
    fi
    log "starting rabbitmq (takes about 10 s)"
    # rabbitmq-server drops to the rabbitmq user by itself and starts epmd.
    RABBITMQ_NODE_IP_ADDRESS="${HOST}" RABBITMQ_NODE_PORT="${RABBITMQ_PORT}" \
        setsid rabbitmq-server >"${STATE_DIR}/rabbitmq.log" 2>&1 </dev/null &
    echo $! >"${STATE_DIR}/rabbitmq.pid"
    wait_rabbitmq
}

stop_rabbitmq() {
    if port_open "${RABBITMQ_PORT}" || rabbitmqctl -q status >/dev/null 2>&1; then
        log "stopping rabbitmq"
        rabbitmqctl -q stop >/dev/null 2>&1 || true
    fi
    kill_pidfile "${STATE_DIR}/rabbitmq.pid"
    # epmd was started by rabbitmq-server; -kill refuses while nodes are registered.
    if command -v epmd >/dev/null; then epmd -kill >/dev/null 2>&1 || true; fi
}

restart_rabbitmq() {
    port_open "${RABBITMQ_PORT}" || die "rabbitmq: not running (run: $0 start)"
    log "restarting rabbitmq app"
    rabbitmqctl -q stop_app >/dev/null
    rabbitmqctl -q start_app >/dev/null
    wait_rabbitmq
}

# --------------------------------------------------------------------------
# moto_server (S3)

moto_ready() {
    curl -fsS -o /dev/null --max-time 2 "http://${HOST}:${MOTO_PORT}/moto-api/" 2>/dev/null ||
        curl -sS -o /dev/null --max-time 2 "http://${HOST}:${MOTO_PORT}/" 2>/dev/null
}

start_moto() {
    if port_open "${MOTO_PORT}"; then
        log "moto_server already up on ${HOST}:${MOTO_PORT}"
        return
    fi
    if pidfile_alive "${STATE_DIR}/moto.pid"; then
        log "moto_server still booting from an earlier start; waiting"
        wait_moto
        return
    fi
    log "starting moto_server"
    # Run the module with the interpreter itself (not a pyenv shim) so the pid
    # file names the server process.
    local python
    python="$(python3 -c 'import sys; print(sys.executable)')"
    setsid "${python}" -m moto.server -H "${HOST}" -p "${MOTO_PORT}" \
        >"${STATE_DIR}/moto.log" 2>&1 </dev/null &
    echo $! >"${STATE_DIR}/moto.pid"
    wait_moto
}

wait_moto() {
    wait_until "moto_server ready" "${TIMEOUT}" moto_ready ||
        fail_with_log moto_server "${STATE_DIR}/moto.log" "not ready on ${HOST}:${MOTO_PORT} after ${TIMEOUT}s"
}

stop_moto() {
    if [[ -f "${STATE_DIR}/moto.pid" ]]; then
        log "stopping moto_server"
        kill_pidfile "${STATE_DIR}/moto.pid"
    elif port_open "${MOTO_PORT}"; then
        log "WARNING: something answers on ${HOST}:${MOTO_PORT} but it was not started here; left alone"
    fi
}

# --------------------------------------------------------------------------

need_installed() {
    local tool
    for tool in pg_ctlcluster redis-server rabbitmq-server rabbitmqctl; do
        command -v "${tool}" >/dev/null || die "${tool} not found (run: $0 install)"
    done
    moto_usable || die "moto_server not importable (run: $0 install)"
}

cmd_start() {
    need_installed
    mkdir -p "${STATE_DIR}"
    start_postgres
    start_redis
    start_moto
    start_rabbitmq
    log "all services up"
}

cmd_stop() {
    mkdir -p "${STATE_DIR}"
    local failed=0
    stop_moto || failed=1
    stop_redis || failed=1
    stop_rabbitmq || failed=1
    stop_postgres || failed=1
    local name port name_port
    for name_port in "postgres:${PG_PORT}" "redis:${REDIS_PORT}" "rabbitmq:${RABBITMQ_PORT}" "moto_server:${MOTO_PORT}"; do
        name="${name_port%%:*}"
        port="${name_port##*:}"
        if ! wait_until "${name} stopped" 20 port_closed "${port}"; then
            log "ERROR: ${name} still answers on ${HOST}:${port}"
            failed=1
        fi
    done
    ((failed == 0)) || die "some services did not stop"
    log "all services stopped"
}

cmd_status() {
    local name port name_port state rc=0
    for name_port in "postgres:${PG_PORT}" "redis:${REDIS_PORT}" "rabbitmq:${RABBITMQ_PORT}" "moto_server:${MOTO_PORT}"; do
        name="${name_port%%:*}"
        port="${name_port##*:}"
        if port_open "${port}"; then state=up; else state=down rc=1; fi
        printf '%-12s %s:%s %s\n' "${name}" "${HOST}" "${port}" "${state}"
    done
    return "${rc}"
}

cmd_env() {
    local pairs=(
        "SCRIBEVAULT_TEST_POSTGRES_URL=postgres://${PG_ROLE}:${PG_PASSWORD}@${HOST}:${PG_PORT}/postgres"
        "SCRIBEVAULT_TEST_AMQP_URL=amqp://guest:guest@${HOST}:${RABBITMQ_PORT}/%2f"
        "SCRIBEVAULT_TEST_REDIS_URL=redis://${HOST}:${REDIS_PORT}"
        "SCRIBEVAULT_TEST_S3_ENDPOINT=http://${HOST}:${MOTO_PORT}"
        "SCRIBEVAULT_TEST_RABBITMQCTL=env RABBITMQ_NODENAME=${RABBITMQ_NODENAME} rabbitmqctl"
    )
    local pair
    for pair in "${pairs[@]}"; do
        # Values hold no single quotes, so single-quoting is enough for eval.
        printf "export %s='%s'\n" "${pair%%=*}" "${pair#*=}"
    done
}

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

main() {
    (($# == 1)) || usage
    case "$1" in
        install) cmd_install ;;
        start) cmd_start ;;
        stop) cmd_stop ;;
        status) cmd_status ;;
        env) cmd_env ;;
        restart-rabbitmq) restart_rabbitmq ;;
        -h | --help | help) usage ;;
        *) usage ;;
    esac
}

main "$@"
