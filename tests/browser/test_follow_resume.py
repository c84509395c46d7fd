"""A following student's light page (GET /follow/<room>) comes back by itself, in Chromium, on the real app: offline
for 20 s (a phone losing the classroom's Wi-Fi) while the lecture moves on, it shows the lecture's current step once
back online, without a reload. Offline is Playwright's (``context.set_offline``: new requests fail, the browser says
it is offline) and a cut wire: Chromium's emulation leaves a connection already open alone (microsoft/playwright
issue 4910), so the phone reaches the server through a forwarder of the test's that drops every connection and
refuses new ones while the phone is away.

And when the students' replica restarts (SIGTERM, then a new process on the same port and the same Redis, the
lecturer on the other replica), the page says it is reconnecting, then follows the same room again, at the lecture's
step, still without a reload, and goes on following its moves.

The sqlite variant of the restart (one server, its rooms file) is tests/browser/test_reload.py."""

from __future__ import annotations

import socket
import threading
from contextlib import ExitStack

import pytest

from tests.browser.harness import PATIENT_MS, ROOT, Server, free_port
from tests.browser.lecture import move, open_projection, open_student, wait_light, wait_open
from tests.redis_server import redis_server_path, running_redis
from ui.words.content import app_text

OFFLINE_MS = 20_000  # how long the phone is off the network: a scenario, not a bound on anything


class Wire:
    """A TCP forwarder from a free port to ``port``: the phone's network. :meth:`cut` drops every connection and
    refuses new ones until :meth:`mend`."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut = False
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            with self._lock:
                if self._cut:
                    client.close()
                    continue
                server = socket.create_connection(("127.0.0.1", self.target))
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            ends, self._open = self._open, []
        for end in ends:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def mend(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self.cut()
        self._listener.close()


def closed(page) -> None:
    """Until the page says it lost the lecture (its line: reconnecting, its state closed)."""
    page.wait_for_function("() => document.getElementById('line').dataset.state === 'closed'", timeout=PATIENT_MS)
    assert page.inner_text("#line") == app_text("follow_reconnecting")


def test_a_follower_offline_for_20_s_shows_the_current_step_once_back_without_a_reload(browser, app_server):
    with ExitStack() as stack:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, app_server.url, walk_to=3, new_room=True)
        wire = Wire(app_server.port)
        stack.callback(wire.close)
        student = open_student(stack, browser, wire.url, room, viewport={"width": 390, "height": 844},
                               is_mobile=True, has_touch=True)
        wait_light(student, 3)
        student.evaluate("window.__stay = 1")  # gone if the page reloads

        student.context.set_offline(True)
        wire.cut()
        closed(student)  # the page says it lost the lecture
        move(projection, 4)  # the lecture moves on while the phone is away
        move(projection, 5)
        student.wait_for_timeout(OFFLINE_MS)
        assert student.inner_text("#line") == app_text("follow_reconnecting")  # nothing of the lecture reached it
        wire.mend()
        student.context.set_offline(False)

        wait_light(student, 5)  # the current step, by itself
        wait_open(student)
        assert student.evaluate("window.__stay") == 1, "the light page reloaded"
        move(projection, 6)  # and it follows again
        wait_light(student, 6)


def test_a_follower_resumes_its_room_after_its_replica_restarts(browser):
    if redis_server_path() is None:
        pytest.skip("redis-server is not installed (make test installs Debian's)")
    (ROOT / "artifacts").mkdir(exist_ok=True)
    with running_redis() as url, ExitStack() as stack:
        env = {"ATTENTION_ROOMS": url}
        lecturer_server, class_server = Server(ROOT / "app.py", env=env), Server(ROOT / "app.py", env=env)
        servers = [lecturer_server, class_server]
        stack.callback(lambda: [server.stop() for server in servers])
        for server in servers:
            server.wait_healthy()
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        stack.callback(context.close)
        projection, room = open_projection(context, lecturer_server.url, walk_to=2, new_room=True)
        student = open_student(stack, browser, class_server.url, room)
        move(projection, 3)
        wait_light(student, 3)
        student.evaluate("window.__stay = 1")

        class_server.stop()  # SIGTERM: the students' replica goes
        closed(student)
        move(projection, 4)  # the lecture goes on, on the other replica
        servers[1] = Server(ROOT / "app.py", env=env, port=class_server.port)  # the same port, the same Redis
        servers[1].wait_healthy()
        wait_open(student)  # it reconnects on its own
        wait_light(student, 4)  # the same room, at the lecture's step
        assert student.evaluate("window.__stay") == 1, "the light page reloaded"
        assert student.evaluate("location.pathname") == f"/follow/{room}"
        move(projection, 5)  # and it follows the next move
        wait_light(student, 5)
