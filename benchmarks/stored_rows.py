"""The rows a benchmark script reads: cipherbench exports (JSON) or a results database, as its
command line gives them (``add_row_sources``, then ``rows_from``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cipherbench.report import current_rows
from cipherbench.store import Result, Store
from cipherbench.store.transfer import read_export


def add_row_sources(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("exports", nargs="*", type=Path, help="cipherbench exports (JSON)")
    parser.add_argument("--db", help="a results database instead of exports")


def rows_from(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Result]:
    """The current rows of the exports or the database (exactly one of them given)."""
    if bool(args.exports) == bool(args.db):
        parser.error("give export files or --db, one of them")
    rows: list[Result] = []
    if args.db:
        with Store(args.db) as store:
            rows = store.results()
    else:
        for export in args.exports:
            rows += read_export(export)
    return current_rows(rows)
