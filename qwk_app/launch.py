"""Start the app warm: ``python -m qwk_app.launch [--class] [--port 8501] [--address localhost]``.

``make run`` and ``make serve-class`` use this instead of a bare ``streamlit run app.py``. Right
after ``streamlit run`` starts, nothing of the app is loaded: the first visitor waits while the
server imports numpy, pandas and every page, builds its caches and renders a page for the
first time (13 s was measured in a classroom). Here the server runs in this very process after
those imports, and as soon as it answers, one visit of its own (Streamlit's websocket protocol,
as a browser speaks it, from this machine) opens every page once. The first student then gets a
server as warm as the thirtieth.

With ``--class`` the app serves the local network (every interface) and, unless the teacher set
``QWK_PUBLIC_URL`` or ``browser.serverAddress``, its share links use this machine's network
address, so students never receive a ``localhost`` link; the address is printed for the board.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
import time

from . import ROOT, links
from .server import healthy

#: The pages visited once at start, each by its URL path (the walkthrough is ""); the class
#: pages open (and migrate) the class database.
WARM_PAGES = ("", "step_by_step", "checker", "theory", "pitfalls", "practice", "teach",
              "join")
#: Longest wait for the server to answer, then for one visit to finish.
READY_TIMEOUT_S = 120.0
VISIT_TIMEOUT_S = 120.0


def preload() -> None:
    """Import what every session needs, before the server accepts one."""
    import numpy  # noqa: F401
    import pandas  # noqa: F401

    import qwk_explained.present.charts  # noqa: F401
    import qwk_explained.present.formulas  # noqa: F401
    from qwk_explained.core.steps import walkthrough
    from qwk_explained.present.i18n import load
    from qwk_explained.present.languages import LANGUAGES

    for lang in LANGUAGES:
        load(lang)
    walkthrough([4, 4, 3, 4, 4, 4, 1, 1, 2, 1], [0, 2, 1, 0, 0, 0, 1, 1, 2, 1]).statistics()


def _ready(base: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if healthy(base):
            return True
        time.sleep(0.2)
    return False


async def _visit(host: str, port: int, path: str, timeout: float) -> bool:
    """Open one page as a browser would and wait until its script run has finished."""
    # websockets is Streamlit's own dependency (its server no longer brings tornado).
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException
    from websockets.typing import Subprotocol

    message = BackMsg()
    state = message.rerun_script
    state.query_string = "lang=en"
    state.page_name = path
    state.context_info.locale = "en-US"
    state.context_info.url = f"http://{host}:{port}/{path}?lang=en"
    try:
        async with connect(f"ws://{host}:{port}/_stcore/stream",
                           subprotocols=[Subprotocol("streamlit")], open_timeout=timeout,
                           max_size=None) as socket:
            await socket.send(message.SerializeToString())
            while True:
                payload = await asyncio.wait_for(socket.recv(), timeout)
                if isinstance(payload, str):
                    return False
                answer = ForwardMsg()
                answer.ParseFromString(payload)
                if answer.WhichOneof("type") == "script_finished" and (
                        answer.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN):
                    return True
    except WebSocketException:
        return False


def warm(port: int, *, host: str = "127.0.0.1") -> None:
    """Visit every page once, as soon as the server answers (run in a background thread)."""
    if not _ready(f"http://{host}:{port}", READY_TIMEOUT_S):
        return
    start = time.perf_counter()
    for path in WARM_PAGES:
        try:
            finished = asyncio.run(_visit(host, port, path, VISIT_TIMEOUT_S))
        except (OSError, asyncio.TimeoutError) as error:
            finished, reason = False, str(error) or type(error).__name__
        else:
            reason = "the connection closed before the page had run"
        if not finished:
            print(f"qwk-explained: warming /{path} failed: {reason}", file=sys.stderr)
            return
    print(f"qwk-explained: warm in {time.perf_counter() - start:.1f} s", file=sys.stderr)


def streamlit_arguments(*, port: int, address: str, classroom: bool) -> list[str]:
    """The ``streamlit run`` command line: in class, share links use the network address."""
    arguments = ["streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                 "--server.address", address]
    if classroom and not os.environ.get(links.PUBLIC_URL_ENV):
        network = links.network_address()
        if network is not None:
            arguments += ["--browser.serverAddress", network, "--browser.serverPort", str(port)]
    return arguments


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", "--server.port", type=int, default=8501)
    parser.add_argument("--address", "--server.address", default=None,
                        help="interface to serve (default: localhost; 0.0.0.0 with --class)")
    parser.add_argument("--class", dest="classroom", action="store_true",
                        help="serve the local network; share links use its address")
    parser.add_argument("--no-warm", dest="warm", action="store_false",
                        help="do not open the pages once at start")
    options, extra = parser.parse_known_args(argv)
    address = options.address or ("0.0.0.0" if options.classroom else "localhost")
    arguments = streamlit_arguments(port=options.port, address=address,
                                    classroom=options.classroom) + extra
    if "--browser.serverAddress" in arguments:
        shown = arguments[arguments.index("--browser.serverAddress") + 1]
        print(f"qwk-explained: students open http://{shown}:{options.port}", file=sys.stderr)
    preload()
    if options.warm:
        local = address if address not in ("0.0.0.0", "::", "localhost") else "127.0.0.1"
        threading.Thread(target=warm, args=(options.port,), kwargs={"host": local},
                         daemon=True).start()
    from streamlit.web import cli

    sys.argv = arguments
    cli.main()


if __name__ == "__main__":
    main()
