"""The deployment files: Compose against the Compose spec's schema, Kubernetes against Kubernetes' own API
schemas, HAProxy's configuration through ``haproxy -c``, and all of them against each other.

Nothing here needs Docker, a cluster or the network: the schemas are files (deploy/schemas/, and the
ones kubernetes-validate ships), and ``haproxy -c`` only reads the configuration."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from benchmarks.cluster import balancer_path
from deploy import sizing
from deploy.haproxy import (
    APP_PORT,
    COMPOSE_BUNDLES,
    COMPOSE_LUA,
    COMPOSE_SLOTS,
    COMPRESSED_TYPES,
    COOKIE,
    EVENTS_BACKEND,
    EVENTS_PATH,
    HEALTH_PATH,
    STATIC_LUA,
    render_compose,
    render_local,
)

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
K8S_VERSIONS = ("1.30", kubernetes_validate.utils.latest_version())  # oldest supported here, newest shipped


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def compose_errors(doc: dict) -> list[str]:
    schema = json.loads((DEPLOY / "schemas" / "compose-spec.json").read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


def manifests() -> list[dict]:
    return [doc for path in sorted((DEPLOY / "k8s").glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(kind: str, name: str = "attention-live") -> dict:
    (doc,) = [d for d in manifests() if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def test_compose_file_matches_the_compose_specification():
    assert compose_errors(compose()) == []


def test_the_compose_schema_check_catches_mistakes():
    broken = copy.deepcopy(compose())
    broken["services"]["app"]["deploy"]["resources"]["limits"]["cpus"] = [2]
    broken["services"]["balancer"]["depends_on"]["app"]["condition"] = "when_ready"
    broken["services"]["app"]["healthcheck"]["intervall"] = "10s"
    places = sorted(error.split(":")[0] for error in compose_errors(broken))
    assert places == ["services/app/deploy/resources/limits/cpus", "services/app/healthcheck",
                      "services/balancer/depends_on"]  # each mistake found where it is (depends_on is a oneOf)


def test_compose_wires_the_balancer_to_the_replicas():
    doc = compose()
    app, balancer = doc["services"]["app"], doc["services"]["balancer"]
    assert (DEPLOY / app["build"]["context"] / app["build"]["dockerfile"]).is_file()
    assert 2 <= app["deploy"]["replicas"] <= COMPOSE_SLOTS
    assert app["environment"]["ATTENTION_HOSTED"] == "1"
    assert HEALTH_PATH in " ".join(app["healthcheck"]["test"])
    assert balancer["depends_on"]["app"]["condition"] == "service_healthy"
    source, target = balancer["volumes"][0].split(":")[:2]
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"
    assert (DEPLOY / source).read_text() == render_compose(), "run `python -m deploy.haproxy > deploy/haproxy.cfg`"
    assert balancer["ports"] == [f"{APP_PORT}:{APP_PORT}"]
    assert f"server-template app 1-{COMPOSE_SLOTS} app:{APP_PORT}" in render_compose()


def test_compose_and_kubernetes_reserve_what_sizing_derives():
    app = compose()["services"]["app"]["deploy"]["resources"]
    assert app["reservations"]["memory"] == f"{sizing.memory_request_mib()}M"
    assert app["limits"]["memory"] == f"{sizing.memory_limit_mib()}M"
    (container,) = by_kind("Deployment")["spec"]["template"]["spec"]["containers"]
    assert container["resources"] == {
        "requests": {"cpu": sizing.CPU_REQUEST, "memory": f"{sizing.memory_request_mib()}Mi"},
        "limits": {"cpu": sizing.CPU_LIMIT, "memory": f"{sizing.memory_limit_mib()}Mi"},
    }
    assert sizing.memory_request_mib() > sizing.IDLE_MB + sizing.RENDER_PEAK_MB
    assert sizing.memory_limit_mib() > sizing.memory_request_mib()


@pytest.mark.parametrize("version", K8S_VERSIONS)
def test_kubernetes_manifests_match_the_api_schemas(version):
    docs = manifests()
    assert sorted(d["kind"] for d in docs) == ["Deployment", "Deployment", "Ingress", "PodDisruptionBudget", "Service",
                                                "Service", "Service"]
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)  # raises with the field at fault


def test_the_kubernetes_check_catches_mistakes():
    deployment = copy.deepcopy(by_kind("Deployment"))
    probe = deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]
    probe["httpGet"]["paht"] = probe["httpGet"].pop("path")  # a typo: strict schemas know every field
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSIONS[-1], strict=True)


def test_kubernetes_probes_affinity_and_routing_fit_together():
    deployment, service, ingress = by_kind("Deployment"), by_kind("Service"), by_kind("Ingress")
    pod = deployment["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    port_names = {p["name"] for p in container["ports"]}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": HEALTH_PATH, "port": "http"}
    assert container["ports"][0]["containerPort"] == APP_PORT
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    assert deployment["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    assert service["spec"]["ports"][0]["targetPort"] in port_names
    assert service["spec"]["sessionAffinity"] == "ClientIP"
    notes = service["metadata"]["annotations"]
    assert notes["haproxy.org/cookie-persistence"] == COOKIE
    assert notes["haproxy.org/check-http"] == HEALTH_PATH
    assert "option redispatch" in notes["haproxy.org/backend-config-snippet"]
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": service["metadata"]["name"], "port": {"name": service["spec"]["ports"][0]["name"]}}
    assert by_kind("PodDisruptionBudget")["spec"]["maxUnavailable"] < deployment["spec"]["replicas"]


@pytest.mark.skipif(balancer_path() is None, reason="HAProxy is not installed (make test installs it)")
def test_haproxy_accepts_every_configuration(tmp_path):
    local = tmp_path / "local.cfg"
    local.write_text(render_local([("app1", 8601), ("app2", 8602)], port=8600, stats_socket=str(tmp_path / "s"),
                                  bundles=tmp_path))
    compose_cfg = tmp_path / "compose.cfg"  # its Lua script where the compose file mounts it, here from the repository
    compose_cfg.write_text((DEPLOY / "haproxy.cfg").read_text().replace(COMPOSE_LUA, str(STATIC_LUA)))
    for config in (compose_cfg, local):
        checked = subprocess.run([balancer_path(), "-c", "-f", str(config)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.skipif(balancer_path() is None, reason="HAProxy is not installed (make test installs it)")
def test_haproxy_check_catches_mistakes(tmp_path):
    bad = tmp_path / "bad.cfg"
    bad.write_text(render_compose().replace("balance leastconn", "balance fewestconn"))
    assert subprocess.run([balancer_path(), "-c", "-f", str(bad)], capture_output=True).returncode != 0


def test_haproxy_configuration_keeps_learners_sticky_and_moves_them_off_dead_replicas():
    for config in (render_compose(), render_local([("app1", 1)], port=2, stats_socket="/tmp/x")):
        assert f"cookie {COOKIE} insert indirect nocache" in config
        assert f"http-check send meth GET uri {HEALTH_PATH}" in config
        assert "option redispatch" in config and "retries 3" in config
        assert "on-marked-down shutdown-sessions" in config
        assert "timeout tunnel 1h" in config  # an idle learner's websocket stays open
    assert "127.0.0.1:2" in render_local([("app1", 1)], port=2, stats_socket="/tmp/x")
    with pytest.raises(ValueError):
        render_local([], port=2, stats_socket="/tmp/x")


def test_every_balancer_compresses_what_streamlit_sends_uncompressed():
    """Streamlit leaves compression to the proxy: the compose and local HAProxy, and the Kubernetes ingress's
    backend, gzip the same text types (benchmarks/bench_first_load.py measures what it saves)."""
    lines = ["compression algo gzip", f"compression type {' '.join(COMPRESSED_TYPES)}"]
    snippet = by_kind("Service")["metadata"]["annotations"]["haproxy.org/backend-config-snippet"]
    for config in (render_compose(), render_local([("app1", 1)], port=2, stats_socket="/tmp/x"), snippet):
        assert all(line in config for line in lines), config
    assert "compression" not in render_local([("app1", 1)], port=2, stats_socket="/tmp/x", compress=False)
    assert {"text/javascript", "application/javascript", "text/css"} <= set(COMPRESSED_TYPES)


def test_every_balancer_sends_the_event_streams_at_once_to_any_replica():
    """A room's event stream (ui/shell/push.py) goes to a backend without stickiness and with http-no-delay, and is
    never compressed; Kubernetes routes /room/ to a Service of the same pods that is the same
    (benchmarks/bench_room.py measures the streams through the local rendering)."""
    assert not any("event-stream" in t for t in COMPRESSED_TYPES)
    for config in (render_compose(), render_local([("app1", 1), ("app2", 3)], port=2, stats_socket="/tmp/x")):
        events = config.split(f"backend {EVENTS_BACKEND}\n", 1)[1]
        assert "option http-no-delay" in events and "cookie" not in events and "balance leastconn" in events
        assert "on-marked-down shutdown-sessions" in events  # a dead replica's streams end: EventSource reconnects
        assert f"acl event_stream path_reg {EVENTS_PATH}" in config and "use_backend events if event_stream" in config
        assert "option http-no-delay" not in config.split(f"backend {EVENTS_BACKEND}\n", 1)[0]  # bundles: full packets
    import re

    assert re.search(EVENTS_PATH, "/base/room/abc_DEF-12/events") and not re.search(EVENTS_PATH, "/room/abc/answer")
    events = by_kind("Service", "attention-live-events")
    notes = events["metadata"]["annotations"]
    assert "option http-no-delay" in notes["haproxy.org/backend-config-snippet"]
    assert "haproxy.org/cookie-persistence" not in notes and "sessionAffinity" not in events["spec"]
    assert events["spec"]["selector"] == by_kind("Service")["spec"]["selector"]
    paths = by_kind("Ingress")["spec"]["rules"][0]["http"]["paths"]
    assert {"path": "/room/", "pathType": "Prefix",
            "backend": {"service": {"name": "attention-live-events", "port": {"name": "http"}}}} in paths


def test_the_replicas_trust_the_balancers_forwarded_scheme():
    """Behind TLS the light page's student cookie must be Secure: the app reads the scheme uvicorn takes from
    X-Forwarded-Proto, which it trusts only from FORWARDED_ALLOW_IPS (127.0.0.1 by default, not the balancer's)."""
    assert compose()["services"]["app"]["environment"]["FORWARDED_ALLOW_IPS"] == "*"
    (container,) = by_kind("Deployment")["spec"]["template"]["spec"]["containers"]
    assert {"name": "FORWARDED_ALLOW_IPS", "value": "*"} in container["env"]


def test_the_compose_balancer_sends_the_bundles_the_app_image_compressed():
    """The one-shot bundles service writes what the balancer's Lua reads: one volume, the script beside the config."""
    services = compose()["services"]
    bundles, balancer = services["bundles"], services["balancer"]
    assert bundles["image"] == services["app"]["image"] and bundles["command"][:3] == ["python", "-m",
                                                                                     "deploy.precompress"]
    out = bundles["command"][3]
    volume = next(v.split(":")[0] for v in bundles["volumes"] if v.split(":")[1] == out)
    mounts = {v.split(":")[1]: v.split(":")[0] for v in balancer["volumes"]}
    assert mounts[COMPOSE_BUNDLES] == volume and mounts[COMPOSE_LUA] == "./static_gz.lua"
    assert (DEPLOY / "static_gz.lua").exists()
    assert balancer["depends_on"]["bundles"]["condition"] == "service_completed_successfully"
    config = render_compose()
    assert f"lua-load {COMPOSE_LUA}" in config and f"setenv ATTENTION_STATIC_GZ {COMPOSE_BUNDLES}" in config
    assert "use-service lua.static_gz" in config


def test_precompressed_bundles_read_back_as_the_files_with_their_types(tmp_path):
    import gzip

    from deploy.precompress import precompress

    root = tmp_path / "static"
    (root / "js").mkdir(parents=True)
    (root / "js" / "a.1f.js").write_text("let x = 1;\n" * 200)
    (root / "css").mkdir()
    (root / "css" / "b.2e.css").write_text("p { margin: 0 }\n" * 200)
    (root / "media").mkdir()
    (root / "media" / "c.woff2").write_bytes(b"\x00" * 100)  # compressed already: left to the replicas
    assert precompress(tmp_path / "out", root) == 2
    rows = [line.split("\t") for line in (tmp_path / "out" / "manifest.tsv").read_text().splitlines()]
    assert sorted(r[:2] for r in rows) == [["/static/css/b.2e.css", "text/css"],
                                           ["/static/js/a.1f.js", "text/javascript"]]
    for address, _, rel in rows:
        original = (root / address.removeprefix("/static/")).read_bytes()
        assert gzip.decompress((tmp_path / "out" / rel).read_bytes()) == original


def test_every_replica_shares_the_rooms_store():
    """Compose and Kubernetes point the app's replicas at the one Redis they deploy for lecture rooms."""
    services = compose()["services"]
    url = services["app"]["environment"]["ATTENTION_ROOMS"]
    host, port = url.removeprefix("redis://").split("/", 1)[0].split(":")
    assert host in services and services[host]["image"].startswith("redis:") and port in services[host]["expose"]
    assert services["app"]["depends_on"][host]["condition"] == "service_healthy"
    (container,) = by_kind("Deployment")["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    host, port = env["ATTENTION_ROOMS"].removeprefix("redis://").split("/", 1)[0].split(":")
    rooms = by_kind("Service", host)
    assert rooms["spec"]["ports"][0]["port"] == int(port)
    assert rooms["spec"]["selector"].items() <= by_kind("Deployment", host)["spec"]["template"]["metadata"][
        "labels"].items()
