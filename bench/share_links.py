"""Share links and their QR codes: long form (``actual=...&predicted=...``) against the short form.

Run from the checkout: ``.venv/bin/python -m bench.share_links [--sizes 50 200 1000 3000]``.
Nothing is timed: for the
bundled examples and for random 5-rating vectors of 50, 200, 1000 and 3000 items (60 % agreement,
the rest one or two ratings off, :func:`qwk_explained.teaching.examples.random_ratings`) it prints
the share link's length and its QR code's version and width in modules (error correction M, as
the share box draws it), before (the vectors as typed, each left out past 3,000 characters) and
after (:func:`qwk_app.state.vector_params` with ``short=True``: the example's name or ``v=``).
A phone reads a QR code from as far as its modules are large: at the same size on the screen, a
code half as many modules wide is read from twice as far.
"""

from __future__ import annotations

import argparse
from urllib.parse import urlencode

import numpy as np
import segno

from qwk_app import state
from qwk_explained.teaching.examples import EXAMPLES, random_ratings

BASE = "http://192.168.1.20:8501/?"
SETTINGS = {"lang": "en", "weights": "quadratic", "scale": "range"}


def qr(link: str) -> str:
    """``version (modules)`` of the share box's QR code, or ``none`` when the link is too long."""
    try:
        code = segno.make(link, error="m", micro=False, boost_error=False)
    except segno.DataOverflowError:
        return "none"
    return f"{code.version} ({code.symbol_size(border=0)[0]})"


def link(session: dict[str, str], *, short: bool) -> str:
    vectors = state.vector_params(session, short=True) if short else {
        key: state.link_vector(session[key]) for key in ("actual", "predicted")
        if len(" ".join(session[key].split())) <= state.MAX_URL_VECTOR_CHARS}
    return BASE + urlencode({**SETTINGS, **vectors}, safe=",;")


def cases(sizes: list[int]) -> list[tuple[str, dict[str, str]]]:
    found = [(example.name, {"actual": state.vector_text(np.array(example.actual)),
                             "predicted": state.vector_text(np.array(example.predicted))})
             for example in EXAMPLES]
    for n in sizes:
        actual, predicted = random_ratings(n, 5, 0.6, seed=n)
        found.append((f"random {n}", {"actual": state.vector_text(actual),
                                      "predicted": state.vector_text(predicted)}))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000, 3000],
                        help="items in the random vectors (after the bundled examples)")
    args = parser.parse_args()
    print(f"{'vectors':<20} {'long: chars':>11} {'QR version (modules)':>21}"
          f" {'short: chars':>13} {'QR version (modules)':>21}  short form")
    for name, session in cases(args.sizes):
        before, after = link(session, short=False), link(session, short=True)
        form = after.rsplit("&", 1)[1][:14] + ("..." if len(after.rsplit("&", 1)[1]) > 14 else "")
        kept = "actual=" in before  # else the link holds the settings only
        long_chars, long_qr = (len(before), qr(before)) if kept else ("left out", "-")
        print(f"{name:<20} {long_chars:>11} {long_qr:>21}"
              f" {len(after):>13} {qr(after):>21}  {form}")


if __name__ == "__main__":
    main()
