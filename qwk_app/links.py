"""Values that come from outside the app's widgets: URL parameters, clicks, the public address.

A shared link carries the step (``step=3``) and the followed cell (``cell=4,0``, rating labels); a
click on a chart sends the clicked cell (``"4,0"``, positions). None of them is trusted: each is
read back into positions on the current scale, or ``None``.

A link given to a class must open on the students' devices, so it is built from the address
students can reach (:func:`public_base`), never from ``localhost`` when the app serves a network.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present.catalogue import STEPS
from qwk_explained.teaching.cells import label_positions, read_cell


def parse_step(value: Any, total: int = len(STEPS)) -> int | None:
    """A 1-based step number from text (``"3"``), or ``None`` when it is not 1..total.

    >>> parse_step("3"), parse_step(" 7 "), parse_step("0"), parse_step("99"), parse_step("x")
    (3, 7, None, None, None)
    >>> parse_step("9" * 5000), parse_step("0007")
    (None, 7)
    """
    text = str(value).strip()
    # Its length first: int() refuses more than 4,300 digits, and no step needs more than two.
    digits = text.lstrip("0")
    if not text.isdigit() or not text.isascii() or len(digits) > len(str(total)):
        return None
    step = int(digits or "0")
    return step if 1 <= step <= total else None


def parse_cell(value: Any, labels: Sequence[int] | NDArray[np.int64]) -> Cell | None:
    """Positions (i, j) of a cell written with rating labels (``"4,0"``); ``None`` if invalid.

    >>> parse_cell("4,0", [0, 1, 2, 3, 4]), parse_cell("5,1", [1, 2, 3]), parse_cell("a", [1])
    ((4, 0), None, None)
    """
    ratings = read_cell(value)
    return None if ratings is None else label_positions(labels, ratings)


def cell_text(result: Walkthrough, i: int, j: int) -> str:
    """The cell as ``"4,0"`` (rating labels), the inverse of :func:`parse_cell`."""
    return f"{int(result.labels[i])},{int(result.labels[j])}"


def cell_from_trigger(value: Any, size: int) -> Cell | None:
    """The cell (i, j) a chart reports as clicked (``"4,0"``, positions), if it is on the scale.

    >>> cell_from_trigger("4,0", 5), cell_from_trigger("5,0", 5), cell_from_trigger("x", 5)
    ((4, 0), None, None)
    """
    cell = read_cell(value)
    if cell is None or not all(0 <= k < size for k in cell):
        return None
    return cell


# --- the address students open ----------------------------------------------------------------

#: Environment variable holding the address students use (``http://192.168.1.20:8501``,
#: ``https://kappa.example.org/class``), for a server behind a proxy or a name.
PUBLIC_URL_ENV = "QWK_PUBLIC_URL"
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


class Base(NamedTuple):
    """Where shared links start (scheme, host, port, path prefix, no trailing slash), and
    whether other devices can open them (``False`` for ``localhost``)."""

    url: str
    reachable: bool


def is_local(host: str) -> bool:
    """Whether ``host`` only means this very machine (``localhost``, ``127.0.0.1``, ``::1``).

    >>> [is_local(h) for h in ("localhost", "127.0.0.1", "192.168.1.20", "kappa.org")]
    [True, True, False, False]
    """
    name = host.strip("[]").lower()
    if name in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def public_base(*, configured: str | None, server_address: str | None, server_port: int | None,
                base_path: str, opened: str | None) -> Base:
    """The start of every shared link.

    In order: the address the teacher configured (:data:`PUBLIC_URL_ENV`); Streamlit's
    ``browser.serverAddress`` when it names another host than this machine (``make serve-class``
    sets it to the machine's network address, and ``.streamlit/config.toml`` may); else the
    address the page was opened with, which other devices can open only if it is not local.

    >>> public_base(configured=None, server_address="192.168.1.20", server_port=8501,
    ...             base_path="", opened="http://localhost:8501/")
    Base(url='http://192.168.1.20:8501', reachable=True)
    >>> public_base(configured=None, server_address="localhost", server_port=8501,
    ...             base_path="", opened="http://localhost:8501/checker")
    Base(url='http://localhost:8501', reachable=False)
    """
    if configured and configured.strip():
        return Base(configured.strip().rstrip("/"), True)
    prefix = "/" + base_path.strip("/") if base_path.strip("/") else ""
    if server_address and not is_local(server_address):
        host = f"[{server_address}]" if ":" in server_address else server_address
        port = f":{server_port}" if server_port and server_port not in (80, 443) else ""
        return Base(f"http://{host}{port}{prefix}", True)
    parts = urlsplit(opened or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    return Base(origin + prefix, bool(origin) and not is_local(parts.hostname or ""))


def network_address() -> str | None:
    """This machine's address on its local network (the one used to reach other hosts), if any.

    No packet is sent: connecting a UDP socket only asks the system which interface and address
    it would use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if is_local(address) or address.startswith("0.") else address
