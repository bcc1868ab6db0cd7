"""One published figure as a flat record: the form every seed's figures take in
``report.published.all_figures``."""

from __future__ import annotations

from dataclasses import dataclass

Value = float | int | str | bool | None


@dataclass(frozen=True)
class PublishedFigure:
    """One number (or cell) of a seed paper, with where it is printed.

    ``architecture`` is the paper's architecture class (``iterative``, ``pipelined``,
    ``basic``, ``software``, ``fast``...); ``variant`` the design or core the row/column
    names (``3-in-1``, ``AO Enc AES(FF)``, ``XC4085XL``); ``column`` the column within it
    (``min``/``max``, ``speed 1``, ``synthesis``, ``encrypt``). ``key_bits`` is None where the
    paper gives one value for every key size or does not say.
    """

    seed: str
    table: str  # "Table 5", "Table II"; "" for a figure stated only in running text
    section: str
    cipher: str
    architecture: str
    variant: str
    column: str
    key_bits: int | None
    metric: str
    value: Value
    unit: str
    note: str = ""
