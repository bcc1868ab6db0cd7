"""The protocol every report section follows, and what it is given.

A section has a title, an explanation (its paragraphs), says whether the results hold rows for
it (``applies``), and gives tables and figures. ``sections.SECTIONS`` lists them in report
order; the Markdown report, the HTML page and anything else that walks sections build from that
one list (``build_sections``), so a section is added in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from ..store import Result
from .tables import Section, Table


@dataclass
class ReportInput:
    """What every section is built from: all current rows (``everything``: the summary, the
    failed runs and the provenance count leakage assessments too), the measured ones
    (``results``: what sits on a target) and the software baseline, when one is given."""

    everything: list[Result]
    results: list[Result]
    baseline: dict[str, Any] | None = None
    # The message-level engines' rows (their own section; not in ``results``).
    engines: list[Result] = field(default_factory=list)
    # A section's tables, built once: ``applies`` of a table-driven section asks for them.
    _tables: dict[str, list[Table]] = field(default_factory=dict)

    def tables_of(self, title: str, build: Callable[[ReportInput], list[Table]]) -> list[Table]:
        if title not in self._tables:
            self._tables[title] = build(self)
        return self._tables[title]


@dataclass(frozen=True)
class Figure:
    """A plot under a section's heading: Markdown's alt text, HTML's caption, and how its PNG and
    SVG are written into the report's folder (and where they are, to remove a stale one)."""

    alt: str
    caption: str
    write: Callable[[Path], list[Path]]  # -> [png, svg]
    paths: Callable[[Path], list[Path]]


class ReportSection(Protocol):
    """One section of the report."""

    @property
    def title(self) -> str: ...

    def explanation(self, given: ReportInput) -> list[str]:
        """The section's paragraphs, above its figures and tables."""
        ...

    def applies(self, given: ReportInput) -> bool:
        """Whether the results hold rows for this section (else it is left out)."""
        ...

    def tables(self, given: ReportInput) -> list[Table]: ...

    def figures(self, given: ReportInput) -> list[Figure]: ...


Paragraphs = Callable[[ReportInput], list[str]]
Tables = Callable[[ReportInput], list[Table]]


def _no_figures(_given: ReportInput) -> list[Figure]:
    return []


@dataclass(frozen=True)
class Listed:
    """A section as ``SECTIONS`` lists it: its title, fixed paragraphs (or ``paragraphs`` built
    from the results), its tables, and when it applies: ``when``, else ``only_with_tables``
    (the section is there when its tables are), else always."""

    title: str
    build: Tables
    text: tuple[str, ...] = ()
    paragraphs: Paragraphs | None = None
    when: Callable[[ReportInput], bool] | None = None
    only_with_tables: bool = False
    plots: Callable[[ReportInput], list[Figure]] = _no_figures

    def explanation(self, given: ReportInput) -> list[str]:
        return self.paragraphs(given) if self.paragraphs else list(self.text)

    def applies(self, given: ReportInput) -> bool:
        if self.when is not None:
            return self.when(given)
        return bool(self.tables(given)) if self.only_with_tables else True

    def tables(self, given: ReportInput) -> list[Table]:
        return given.tables_of(self.title, self.build)

    def figures(self, given: ReportInput) -> list[Figure]:
        return self.plots(given)


def rendered(section: ReportSection, given: ReportInput) -> Section:
    """A section's content as the renderers take it (tables.Section)."""
    return Section(section.title, paragraphs=section.explanation(given),
                   tables=section.tables(given))
