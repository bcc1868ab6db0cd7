"""Every figure of the five seed papers, gathered: one :class:`PublishedFigure` record each.

Each seed's figures sit beside its report section, in its own package; this module only gathers
them (:func:`all_figures`, :func:`figures`). ``docs/published.md`` lists what is recorded from
each paper and what the papers lack; ``tests/test_published.py`` cross-checks every number.

* ``000`` ``report/nsa/published.py``: B. Weeks, M. Bean, T. Rozylowicz, C. Ficke (NSA),
  "Hardware Performance Simulations of Round 2 Advanced Encryption Standard Algorithms".
* ``001`` ``report/gaj/published.py``: K. Gaj, P. Chodowiec, FPGA comparison of the AES finalists.
* ``002`` ``report/papaefstathiou/published.py``: I. Papaefstathiou, V. Papaefstathiou,
  C. Sotiriou, "Design-space exploration of the most widely used cryptography algorithms".
* ``003`` ``report/sugawara/published.py``: T. Sugawara, N. Homma, T. Aoki, A. Satoh, "ASIC
  Performance Comparison for the ISO Standard Block Ciphers".
* ``004`` ``report/fischer/published.py``: V. Fischer, "Realization of the Round 2 AES Candidates
  using Altera FPGA".

A seed's cipher names are mapped to the project's by ``report.names.project_cipher``.
"""

from __future__ import annotations

from .fischer import published as fischer
from .gaj import published as gaj
from .names import project_cipher
from .nsa import published as nsa
from .papaefstathiou import published as papaefstathiou
from .record import PublishedFigure, Value
from .sugawara import published as sugawara

__all__ = ["PublishedFigure", "Value", "SEEDS", "all_figures", "figures"]

_SEED_DATA = (nsa, gaj, papaefstathiou, sugawara, fischer)

# seed id ("000") -> the paper, its device or process and tools
SEEDS: dict[str, str] = {data.SEED: data.SOURCE for data in _SEED_DATA}


def all_figures() -> tuple[PublishedFigure, ...]:
    """Every recorded figure of the five seeds, one record each."""
    return tuple(figure for data in _SEED_DATA for figure in data.records())


def figures(seed: str | None = None, table: str | None = None, cipher: str | None = None,
            metric: str | None = None) -> tuple[PublishedFigure, ...]:
    """Recorded figures filtered by seed id ("000"), table ("Table 5"), cipher, metric."""
    name = project_cipher(cipher) if cipher else None
    return tuple(f for f in all_figures()
                 if (seed is None or f.seed == seed) and (table is None or f.table == table)
                 and (name is None or f.cipher == name) and (metric is None or f.metric == metric))
