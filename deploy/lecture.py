"""The lecture set on one machine: K app servers sharing one class database, behind nginx.

``make serve-lecture REPLICAS=3`` runs ``python -m deploy.lecture --replicas 3``: a throwaway
PostgreSQL cluster (:mod:`deploy.postgres`), three warm Streamlit servers on loopback ports
(``python -m qwk_app.launch``, each with ``QWK_CLASS_DB`` pointing at the cluster), and nginx
(:mod:`deploy.nginx`) on the class's port, balancing students over the servers with sticky
sessions. With one replica there is nothing to balance and nothing to share: the one server
serves the port itself, on the SQLite file (what ``make serve-class`` does).

Why several servers help: Streamlit runs each session's script in a thread of one Python
process, and one process runs Python on one core at a time; K processes use K cores. The tests
and the classroom load bench (``python -m bench.load_classroom --class --servers 3``) start the
same set through :func:`lecture`.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from qwk_app import links
from qwk_app.server import HOST, Server, free_port, start
from qwk_class.store import DATABASE_ENV

from . import nginx, postgres

#: The warm launcher (every page opened once before the first student arrives).
LAUNCH = (sys.executable, "-m", "qwk_app.launch")
SERVER_TIMEOUT_S = 120.0


@dataclass
class Lecture:
    """A running set: where students go (``url``), the app servers, the database URL."""

    url: str
    servers: list[Server]
    database: str
    proxy: nginx.Nginx | None = None
    cluster: postgres.Cluster | None = None


@contextmanager
def lecture(replicas: int, *, port: int | None = None, host: str = HOST,
            public_url: str | None = None, warm: bool = True,
            database: str | None = None, proxy: bool | None = None) -> Iterator[Lecture]:
    """Start the set, yield it, stop everything (by pid) when the block ends.

    ``replicas`` > 1: PostgreSQL, and nginx on ``host:port``; 1: a SQLite file in a temporary
    folder, and the server itself on ``port`` (nginx in front of it too with ``proxy=True``).
    ``database`` (any SQLAlchemy URL) replaces either; ``public_url`` goes to every server as
    ``QWK_PUBLIC_URL`` (the address students open).
    """
    proxy = replicas > 1 if proxy is None else proxy
    if replicas < 1:
        raise ValueError("at least one app server")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="qwk-lecture-")))
        cluster = None
        if database is None and replicas > 1:
            cluster = stack.enter_context(postgres.running())
            database = cluster.url
        elif database is None:
            database = f"sqlite:///{folder / 'classes.sqlite3'}"
        env = {DATABASE_ENV: database}
        if public_url:
            env[links.PUBLIC_URL_ENV] = public_url
        command = LAUNCH if warm else (*LAUNCH, "--no-warm")
        ports = [port if not proxy and port else free_port() for _ in range(replicas)]
        servers: list[Server] = []
        errors: list[BaseException] = []

        def launch(server_port: int) -> None:
            try:
                servers.append(start(port=server_port, timeout=SERVER_TIMEOUT_S,
                                     command=command, env=env,
                                     log=folder / f"server-{server_port}.log"))
            except BaseException as error:  # noqa: BLE001 - raised below, after the others
                errors.append(error)

        # Started together: each cold start imports numpy, pandas and plotly (several seconds).
        threads = [threading.Thread(target=launch, args=(p,)) for p in ports]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for server in servers:
            stack.callback(server.stop)
        if errors:
            raise errors[0]
        servers.sort(key=lambda server: ports.index(server.port))
        balancer = None
        if proxy:
            balancer = stack.enter_context(nginx.running(
                [f"{HOST}:{server.port}" for server in servers], port=port or free_port(),
                host=host))
        yield Lecture(balancer.url if balancer else servers[0].url, servers, database,
                      balancer, cluster)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=3, help="app servers (default 3)")
    parser.add_argument("--port", type=int, default=8501, help="the port students open")
    parser.add_argument("--address", default="0.0.0.0",
                        help="interface nginx listens on (default: every one, for a class)")
    options = parser.parse_args(argv)
    if not 1 <= options.replicas <= 32:
        parser.error("--replicas 1..32")
    public = os.environ.get(links.PUBLIC_URL_ENV)
    if public is None and options.address in ("0.0.0.0", "::"):
        network = links.network_address()
        public = f"http://{network}:{options.port}" if network else None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with lecture(options.replicas, port=options.port, host=options.address, public_url=public,
                 proxy=True) as running:
        print(f"qwk-explained: {options.replicas} app server(s) on "
              f"{', '.join(str(s.port) for s in running.servers)}; class database "
              f"{running.database.split('@')[-1]}", file=sys.stderr)
        print(f"qwk-explained: students open {public or running.url} (Ctrl+C stops "
              "everything)", file=sys.stderr)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
