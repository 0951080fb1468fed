"""``arena serve`` as a command: the address it prints, the access token off loopback,
and a clean stop on Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

from tests.arena.people.helpers import arena_command, arena_env, default_sigint, write_config


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("host, token", [("127.0.0.1", False), ("0.0.0.0", True)])
def test_serve_prints_its_address_and_needs_a_token_off_loopback(tmp_path, distil_dir, host, token):
    config = write_config(tmp_path, distil_dir)
    program, argv = arena_command("serve", str(config), "--out", str(tmp_path / "runs"), "--host", host, "--port", "0",
                                  "--no-progress")
    server = subprocess.Popen([program, *argv], env=arena_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, preexec_fn=default_sigint)
    try:
        for line in server.stdout:
            found = re.search(r"serving 4 rounds of people at http://[^:]+:(\d+)/(\?token=(\S+))?", line)
            if found:
                break
        else:
            pytest.fail(f"no address printed: {server.stderr.read()}")
        port, secret = found.group(1), found.group(3)
        assert (secret is not None) is token
        base = f"http://127.0.0.1:{port}/"
        if token:
            assert status(base) == 403
            assert status(base + "?token=wrong") == 403
            assert status(base + f"?token={secret}") == 200
        else:
            assert status(base) == 200
            assert status(f"http://localhost:{port}/") == 200
        assert status(base + "static/play.js" + (f"?token={secret}" if token else "")) == 200
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    assert "every judgement is saved" in out, (out, err)
    assert "Traceback" not in err


def test_serve_on_a_port_in_use_is_a_usage_error(tmp_path, distil_dir):
    import socket

    config = write_config(tmp_path, distil_dir)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        program, argv = arena_command("serve", str(config), "--out", str(tmp_path / "runs"), "--port", str(port))
        done = subprocess.run([program, *argv], env=arena_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr
