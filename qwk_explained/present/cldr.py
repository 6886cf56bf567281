"""Write each language's CLDR data into its record, from Babel: ``python -m
qwk_explained.present.cldr --write`` (``--check`` only compares).

The app and the CLI read numbers and plurals from ``locales/languages.json`` and need nothing but
the standard library to do so; Babel (a development dependency, pinned in
``requirements-dev.txt``) is needed only to regenerate that data. Per language it extracts the
CLDR number symbols (decimal mark, grouping mark, minus sign, percent sign), the percent pattern
as a template (``{}%``, ``{}\u00a0%``, ``%{}``), the plural rules (CLDR syntax, evaluated by
:mod:`.plurals`) and the list patterns ("2 and 5", "2, 3 and 5").
``tests/present/test_cldr.py`` runs the extraction again and fails if the committed record differs.

Babel does not expose CLDR's ``minimumGroupingDigits``, so that one value is written by hand in
the record (``min_grouping_digits``), next to the other hand-chosen fields.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

#: The record file, beside the translations.
RECORD = Path(__file__).resolve().parents[1] / "locales" / "languages.json"


def extract(code: str) -> dict[str, Any]:
    """The CLDR data of one language, as Babel ships it (imported here: only this needs Babel)."""
    from babel import Locale
    from babel.numbers import parse_pattern

    locale = Locale.parse(code)
    symbols = locale.number_symbols[locale.default_numbering_system]
    pattern = parse_pattern(locale.percent_formats[None].pattern)
    # The positive percent pattern: "%" stands for the locale's percent sign, and the number
    # goes where "{}" is (a negative number brings its own minus sign).
    percent = (pattern.prefix[0] + "{}" + pattern.suffix[0]).replace("%", symbols["percentSign"])
    lists = locale.list_patterns["standard"]
    return {
        "decimal": symbols["decimal"],
        "group": symbols["group"],
        "minus": symbols["minusSign"],
        "percent_sign": symbols["percentSign"],
        "percent": percent,
        "plural": dict(sorted(locale.plural_form.rules.items())),
        "list": {part: lists[part] for part in ("2", "start", "middle", "end")},
    }


def source() -> dict[str, str]:
    """Which Babel and which CLDR release the data come from."""
    import babel
    from babel.core import get_cldr_version

    return {"babel": babel.__version__, "cldr": str(get_cldr_version())}


def read_record(path: Path | None = None) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((path or RECORD).read_text(encoding="utf-8"))
    return record


def regenerated(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every language's ``cldr`` part extracted again; hand fields kept."""
    fresh: dict[str, Any] = {"source": source(), "languages": {}}
    for code, entry in record["languages"].items():
        fresh["languages"][code] = {**entry, "cldr": extract(code)}
    return fresh


def dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qwk_explained.present.cldr",
                                     description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite locales/languages.json")
    action.add_argument("--check", action="store_true", help="exit 1 if it is out of date")
    options = parser.parse_args(argv)
    current = RECORD.read_text(encoding="utf-8")
    text = dump(regenerated(json.loads(current)))
    if options.write:
        RECORD.write_text(text, encoding="utf-8")
        return 0
    if text != current:
        print(f"{RECORD} is out of date: run python -m qwk_explained.present.cldr --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
