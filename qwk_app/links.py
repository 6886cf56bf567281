"""Values that come from outside the app's widgets: URL parameters, clicks, the public address.

A shared link carries the step (``step=3``) and the followed cell (``cell=4,0``, rating labels); a
click on a chart sends the clicked cell (``"4,0"``, positions). None of them is trusted: each is
read back into positions on the current scale, or ``None``.

A link given to a class must open on the students' devices, so it is built from the address
students can reach (:func:`public_base`), never from ``localhost`` when the app serves a network.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import socket
import zlib
from collections.abc import Sequence
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import numpy as np
from numpy.typing import NDArray

from qwk_explained.core.errors import InputError
from qwk_explained.core.limits import MAX_ABS_RATING
from qwk_explained.core.parse import shorten
from qwk_explained.core.steps import Walkthrough
from qwk_explained.core.types import Cell
from qwk_explained.present.catalogue import STEPS
from qwk_explained.teaching.cells import label_positions, read_cell
from qwk_explained.teaching.examples import BY_NAME, EXAMPLES, Example


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


# --- the two rating vectors, short enough for a QR code read from the back row -------------------

#: A link's parameter naming a bundled example (``ex=seed_es``): the shortest link of all.
EXAMPLE_PARAM = "ex"
#: A link's parameter holding both vectors in the compact form (:func:`pack_vectors`).
VECTORS_PARAM = "v"
#: The longest compact form a link carries (characters): the budget of the two text fields it
#: replaces (3,000 each), so no link gets longer than the long form's longest.
MAX_PACKED_CHARS = 6000
#: Most items a compact form may declare: what :data:`MAX_PACKED_CHARS` holds when deflate finds
#: long runs, and a bound on what a forged value can make the reader build.
MAX_PACKED_ITEMS = 200_000
#: Widest scale whose pairs deflate one byte each (``actual * k + predicted`` < 256).
_DEFLATE_MAX_CLASSES = 16
_CHECK_BYTES = 3
_PACKED = re.compile(r"1([bz])\.(-?[0-9]{1,10})\.(-?[0-9]{1,10})\.([0-9]{1,6})\.([A-Za-z0-9_-]*)")


def pack_vectors(actual: NDArray[np.int64], predicted: NDArray[np.int64]) -> str:
    """Both vectors as one short, URL-safe text: ``1<codec>.<min>.<max>.<n>.<data>``.

    The ratings are offsets from the lowest one (``min``), so a 0..4 scale needs 3 bits a rating;
    ``n`` says how many pairs there are. Two codecs, the shorter one wins: ``b`` packs each
    offset in as many bits as the widest needs (``actual``, ``predicted``, ``actual``...); ``z``
    deflates one byte per pair (``actual * k + predicted`` on a scale of at most 16 ratings),
    which codes the pairs raters agree on in a few bits and long runs in almost none. ``data``
    is base64url without padding, and ends with three bytes of CRC-32 of everything before them
    (the text's header included), so a mistyped or cut link is refused rather than read as other
    ratings. ``1`` is the format's version.

    >>> pack_vectors(np.array([4, 4, 3]), np.array([0, 2, 1]))
    '1b.0.4.3.giZA_-3i'
    >>> unpack_vectors(pack_vectors(np.array([-2, 7]), np.array([7, 7])))
    (array([-2,  7]), array([7, 7]))
    """
    if len(actual) != len(predicted) or not len(actual):
        raise ValueError("two vectors of the same, non-zero length")
    low = int(min(actual.min(), predicted.min()))
    high = int(max(actual.max(), predicted.max()))
    offsets = np.column_stack((actual - low, predicted - low)).astype(np.uint64)
    forms = [_framed("b", low, high, len(actual), _bits(offsets.ravel(), _width(high - low)))]
    classes = high - low + 1
    if classes <= _DEFLATE_MAX_CLASSES:
        pairs = (offsets[:, 0] * classes + offsets[:, 1]).astype(np.uint8).tobytes()
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: no header, no Adler-32
        deflated = deflate.compress(pairs) + deflate.flush()
        forms.append(_framed("z", low, high, len(actual), deflated))
    return min(forms, key=len)


def unpack_vectors(text: str) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The two vectors of a compact form (:func:`pack_vectors`), checked to the last bit.

    Only the one text :func:`pack_vectors` writes for these ratings is read: the header's numbers
    written the short way, the lowest and highest rating both used, exactly the bytes the count
    needs, padding bits zero, the checksum right, nothing after the deflated data (which is never
    inflated past the pairs it declares). Anything else raises ``InputError("link_bad_vectors")``.
    """
    match = _PACKED.fullmatch(text) if text.isascii() and len(text) <= MAX_PACKED_CHARS else None
    if match is None:
        raise _bad_vectors()
    codec, low_text, high_text, n_text, data_text = match.groups()
    low, high, n = int(low_text), int(high_text), int(n_text)
    if (any(str(int(field)) != field for field in (low_text, high_text, n_text))
            or not (-MAX_ABS_RATING <= low <= high <= MAX_ABS_RATING)
            or not (1 <= n <= MAX_PACKED_ITEMS)
            or len(data_text) % 4 == 1):
        raise _bad_vectors()
    raw = base64.urlsafe_b64decode(data_text + "=" * (-len(data_text) % 4))
    header, data, check = text[:match.start(5)], raw[:-_CHECK_BYTES], raw[-_CHECK_BYTES:]
    if (_b64(raw) != data_text or len(raw) < _CHECK_BYTES
            or check != _checksum(header, data)):
        raise _bad_vectors()
    if codec == "b":
        offsets = _unbits(data, 2 * n, _width(high - low))
    else:
        offsets = _inflate_pairs(data, n, high - low + 1)
    actual, predicted = offsets[0::2] + low, offsets[1::2] + low
    if offsets.max() > high - low or min(actual.min(), predicted.min()) != low \
            or max(actual.max(), predicted.max()) != high:
        raise _bad_vectors()
    return actual, predicted


def _bad_vectors() -> InputError:
    return InputError("link_bad_vectors", parameter=VECTORS_PARAM)


def _width(span: int) -> int:
    """Bits an offset of at most ``span`` needs (0 when every rating is the same)."""
    return int(span).bit_length()


def _bits(offsets: NDArray[np.uint64], width: int) -> bytes:
    """Each offset in ``width`` bits, most significant first, zero bits to the last byte."""
    shifts = np.arange(width - 1, -1, -1, dtype=np.uint64)
    bits = ((offsets[:, None] >> shifts) & np.uint64(1)).astype(np.uint8)
    return np.packbits(bits.ravel()).tobytes()


def _unbits(data: bytes, count: int, width: int) -> NDArray[np.int64]:
    """The ``count`` offsets of ``width`` bits in ``data`` (the inverse of :func:`_bits`)."""
    if len(data) != (count * width + 7) // 8:
        raise _bad_vectors()
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    if bits[count * width:].any():
        raise _bad_vectors()
    weights = np.int64(1) << np.arange(width - 1, -1, -1, dtype=np.int64)
    return bits[:count * width].reshape(count, width).astype(np.int64) @ weights


def _inflate_pairs(data: bytes, n: int, classes: int) -> NDArray[np.int64]:
    """The ``n`` pairs deflated one byte each, as offsets ``actual, predicted, actual...``."""
    if classes > _DEFLATE_MAX_CLASSES:
        raise _bad_vectors()
    inflate = zlib.decompressobj(-15)
    try:
        pairs = inflate.decompress(data, n)  # never more than the n bytes declared
    except zlib.error:
        raise _bad_vectors() from None
    if len(pairs) != n or not inflate.eof or inflate.unconsumed_tail or inflate.unused_data:
        raise _bad_vectors()
    codes = np.frombuffer(pairs, dtype=np.uint8).astype(np.int64)
    if codes.max() >= classes * classes:
        raise _bad_vectors()
    return np.column_stack(np.divmod(codes, classes)).ravel()


def _framed(codec: str, low: int, high: int, n: int, data: bytes) -> str:
    header = f"1{codec}.{low}.{high}.{n}."
    return header + _b64(data + _checksum(header, data))


def _checksum(header: str, data: bytes) -> bytes:
    return zlib.crc32(data, zlib.crc32(header.encode("ascii"))).to_bytes(4, "big")[:_CHECK_BYTES]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def read_example(value: str) -> Example:
    """The bundled example a link names (``ex=seed_es``), or ``InputError("link_unknown_example")``.
    """
    example = BY_NAME.get(value) if isinstance(value, str) else None
    if example is None:
        raise InputError("link_unknown_example", parameter=EXAMPLE_PARAM, value=shorten(value),
                         choices=", ".join(BY_NAME))
    return example


def example_named_by(actual: NDArray[np.int64], predicted: NDArray[np.int64]) -> Example | None:
    """The bundled example whose vectors these are, if any (its name is the shortest link)."""
    pair = (tuple(actual.tolist()), tuple(predicted.tolist()))
    return next((example for example in EXAMPLES
                 if (example.actual, example.predicted) == pair), None)
