"""The throwaway app server (``qwk_app.server``) that the browser tests and the load bench share.

Sources of truth: the operating system (a stopped server's pid no longer exists, its port is free
again) and Streamlit's own health probe and page (``/_stcore/health`` answers ``ok``, ``/`` serves
the app's HTML).
"""

from __future__ import annotations

import os
import socket
import urllib.request

import pytest

from qwk_app.server import HOST, ServerError, serving, start

pytestmark = pytest.mark.slow


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    return True


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        return probe.connect_ex((HOST, port)) != 0


def test_serving_answers_on_loopback_then_leaves_nothing_behind():
    """Ready on entry (health ok, the app's page served); after the block, the process has ended,
    the port is free and the temporary log is gone."""
    with serving() as server:
        assert server.url == f"http://{HOST}:{server.port}"
        assert server.healthy()
        with urllib.request.urlopen(server.url, timeout=10) as response:
            assert response.status == 200 and b"<html" in response.read().lower()
        pid, log = server.pid, server.log
        assert running(pid) and log.exists()
    assert not running(pid)
    assert port_is_free(server.port)
    assert not log.exists()


def test_the_server_stops_even_when_the_block_raises():
    with pytest.raises(KeyError), serving() as server:
        raise KeyError("a failing test")
    assert not running(server.pid)


def test_a_server_that_cannot_start_raises_with_its_output(tmp_path):
    """A busy port: Streamlit exits at once; the error says so and quotes the server's output."""
    log = tmp_path / "server.log"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind((HOST, 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(ServerError, match=rf"(?s)exited with status .*{port}"):
            start(port=port, log=log, timeout=30)
    assert log.exists()  # the caller's own log is kept for reading


def test_stop_is_safe_to_call_twice():
    server = start()
    server.stop()
    server.stop()
    assert not running(server.pid)
