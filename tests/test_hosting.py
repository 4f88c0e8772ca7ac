"""The hosting files (Containerfile, deploy/compose.yaml, deploy/Caddyfile,
deploy/cardrules.service) start the server they say, with options it has, and the proxy
they put in front of it is believed about the client's address and no one else is.

The image itself is not built here (its base image comes from a container registry,
which the test machines do not reach); each command line it runs is run for real."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _containerfile() -> tuple[list[str], dict[str, str]]:
    text = re.sub(r"\\\n", " ", (ROOT / "Containerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    found = {}
    for line in lines:
        word, _, rest = line.partition(" ")
        found[word] = rest.strip()
    return json.loads(found["CMD"]), found


def _compose() -> dict:
    return yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())


def _unit_command() -> list[str]:
    for line in (ROOT / "deploy" / "cardrules.service").read_text().splitlines():
        if line.startswith("ExecStart="):
            return shlex.split(line.removeprefix("ExecStart="))
    raise AssertionError("no ExecStart")


def test_the_image_runs_as_a_user_with_the_rooms_in_a_volume():
    command, found = _containerfile()
    assert found["USER"] not in ("root", "0") and found["VOLUME"] == "/data"
    assert command[:2] == ["cardrules", "serve"] and command[command.index("--data") + 1] == "/data"
    assert _compose()["services"]["cardrules"]["command"] == command  # the compose file runs the image's command


def test_the_compose_file_puts_caddy_in_front_with_the_rooms_kept():
    services = _compose()["services"]
    assert "rooms:/data" in services["cardrules"]["volumes"] and "ports" not in services["cardrules"]
    assert {"80:80", "443:443"} <= set(services["caddy"]["ports"])
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "reverse_proxy cardrules:8000" in caddyfile and "{$CARDRULES_DOMAIN}" in caddyfile
    assert "8000" in services["cardrules"]["expose"]


def test_the_unit_runs_unprivileged_with_its_state_directory():
    text = (ROOT / "deploy" / "cardrules.service").read_text()
    assert "DynamicUser=yes" in text and "StateDirectory=cardrules" in text
    command = _unit_command()
    assert command[command.index("--data") + 1] == "/var/lib/cardrules"
    if shutil.which("systemd-analyze"):
        done = subprocess.run(["systemd-analyze", "verify", str(ROOT / "deploy" / "cardrules.service")],
                              capture_output=True, text=True)
        assert "Unknown key" not in done.stderr and "Invalid" not in done.stderr, done.stderr


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, forwarded: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"X-Forwarded-For": forwarded} if forwarded else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _run(command: list[str], tmp_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a hosting file's command line as it is, but with this Python's cardrules, a
    folder of the test's for --data, loopback and a free port."""
    args = list(command[2:])
    port = _port()
    for option, value in (("--data", str(tmp_path / "rooms")), ("--host", "127.0.0.1"), ("--port", str(port))):
        args[args.index(option) + 1] = value
    server = subprocess.Popen([sys.executable, "-m", "cardrules", "serve", *args, "--http-rate", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if _get(url + "/api/rulesets") == 200:
                return server, url
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            out, err = server.communicate()
            raise AssertionError(f"the server did not start: {err.decode()[-2000:]}")
        time.sleep(0.1)


@pytest.mark.parametrize("which", ["Containerfile", "cardrules.service"])
def test_each_hosting_command_serves_and_believes_only_its_proxy(which, tmp_path):
    # (the unit's ExecStart names the program by its path in the venv it installs)
    command = _containerfile()[0] if which == "Containerfile" else ["cardrules"] + _unit_command()[1:]
    server, url = _run(command, tmp_path)
    try:
        # The proxy here is 127.0.0.1, which both files trust: each forwarded client has
        # its own bucket (--http-rate 1: ten requests at once, then 429) ...
        codes = [_get(url + "/api/rulesets", forwarded="203.0.113.7") for _ in range(14)]
        assert codes[0] == 200 and codes[-1] == 429
        assert _get(url + "/api/rulesets", forwarded="198.51.100.9") == 200
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert b"Traceback" not in err


def test_a_proxy_not_trusted_is_not_believed(tmp_path):
    command = ["cardrules", "serve", "--host", "127.0.0.1", "--port", "0", "--data", "x",
               "--trusted-proxy", "192.0.2.1"]
    server, url = _run(command, tmp_path)
    try:
        codes = [_get(url + "/api/rulesets", forwarded="203.0.113.7") for _ in range(14)]
        assert codes[-1] == 429
        # every client counts as the untrusted sender, whatever it says it forwards
        assert _get(url + "/api/rulesets", forwarded="198.51.100.9") == 429
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_a_bad_trusted_proxy_is_a_usage_error(run_cli):
    result = run_cli("serve", "--trusted-proxy", "10.0.0.0/8,not-an-address")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].endswith(
        "'not-an-address' is not an address or a network (such as 127.0.0.1 or 172.16.0.0/12)")


def _builder() -> list[str] | None:
    """A container builder that can run here (podman, or docker with its daemon up)."""
    for tool in ("podman", "docker"):
        if shutil.which(tool) and subprocess.run([tool, "info"], capture_output=True, timeout=30).returncode == 0:
            return [tool]
    return None


def test_the_image_builds_where_a_builder_and_its_base_image_are_at_hand(tmp_path):
    builder = _builder()
    if builder is None:
        pytest.skip("no container builder here (podman, or docker with a running daemon)")
    base = next(line.split()[1] for line in (ROOT / "Containerfile").read_text().splitlines()
                if line.startswith("FROM "))
    if subprocess.run([*builder, "image", "inspect", base], capture_output=True, timeout=60).returncode != 0:
        pytest.skip(f"the base image {base} is not on this machine (and registries may be out of reach)")
    tag = "localhost/cardrules-test:latest"
    built = subprocess.run([*builder, "build", "-t", tag, "-f", str(ROOT / "Containerfile"), str(ROOT)],
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    user = subprocess.run([*builder, "run", "--rm", "--entrypoint", "id", tag, "-u"], capture_output=True, text=True)
    assert user.stdout.strip() == "10001"  # not root
    volumes = subprocess.run([*builder, "image", "inspect", "-f", "{{json .Config.Volumes}}", tag],
                             capture_output=True, text=True)
    assert "/data" in volumes.stdout
