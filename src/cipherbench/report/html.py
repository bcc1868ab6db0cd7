"""One self-contained HTML page: inline CSS, the plot as inline SVG, no network loads.

Every string that could come from a user (design names, targets, settings, failure reasons,
provenance) goes through ``esc``; only the plot SVG, which matplotlib wrote with its text drawn as
paths, is inserted as markup, after its XML prolog, DOCTYPE and metadata are stripped.

The explorer (explorer.py) follows the headline. A Content-Security-Policy in the page lets only
its script (by its SHA-256) run and forbids every network load.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Sequence

from ..store import Result
from .explorer import EXPLORER_JS, explorer_markup, explorer_rows
from .headline import TITLE as HEADLINE_TITLE
from .markup import esc, script_hash
from .tables import Section, Table

# explorer_rows: the explorer's rows, which callers (tests/test_external_cores.py) read here.
__all__ = ["render_page", "render_section", "render_table", "figure_markup", "esc",
           "content_security_policy", "explorer_rows"]

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 100%; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; white-space: nowrap; }
td:first-child, th:first-child { text-align: left; }
thead th { background: #f0f0f0; }
th.group-published, td.published { background: #fff6e0; }
tbody tr:nth-child(even) td { background: #fafafa; }
tbody tr:nth-child(even) td.published { background: #fbf0d4; }
p.note { font-size: 0.8em; color: #555; margin: 0.2em 0; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
details { margin: 0.5em 0; } summary { cursor: pointer; }
/* The headline fits the window: its cells wrap (a "does not fit" answer is a sentence). */
#headline td, #headline th { white-space: normal; text-align: left; }
#headline td:first-child { white-space: nowrap; }
.cbx-controls { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; align-items: center;
  margin: 0.5em 0; font-size: 0.9em; }
.cbx-controls label { white-space: nowrap; }
#cbx-table th { cursor: pointer; user-select: none; position: sticky; top: 0; }
.cbx-tablewrap { max-height: 36em; overflow-y: auto; }
#cbx-table th[aria-sort="ascending"]::after { content: " \\25B2"; }
#cbx-table th[aria-sort="descending"]::after { content: " \\25BC"; }
#cbx-table td.text, #cbx-table th.text { text-align: left; }
#cbx-plot { width: 100%; max-width: 820px; height: auto; border: 1px solid #ddd; }
#cbx-plot text { font: 12px system-ui, sans-serif; fill: #333; }
#cbx-plot .axis { stroke: #555; } #cbx-plot .grid { stroke: #eee; }
#cbx-plot .cbx-front { fill: none; stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 5 3; }
#cbx-plot circle { stroke: #fff; stroke-width: 0.8; fill-opacity: 0.85; }
#cbx-plot circle.cbx-front-pt { stroke: #d62728; stroke-width: 2.2; }
.cbx-legend { font-size: 0.85em; } .cbx-legend span { margin-right: 1em; white-space: nowrap; }
.cbx-swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em;
  border-radius: 50%; vertical-align: middle; }
"""

_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<metadata>.*?</metadata>", re.S | re.I)
# Namespace declarations are implied for <svg> inside HTML (the parser also maps xlink:href);
# dropping them leaves the page without a single http: string for checkers to worry about.
_XMLNS = re.compile(r'\s+xmlns(?::xlink)?="http://www\.w3\.org/[^"]*"')


def inline_svg(svg_text: str) -> str:
    """Matplotlib SVG ready to sit inside HTML: no prolog, DOCTYPE, metadata or namespaces."""
    return _XMLNS.sub("", _PROLOG.sub("", svg_text)).strip()


def png_data_uri(png: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")


def _published_columns(table: Table) -> set[int]:
    """Indices of the columns under the published group, for shading."""
    cols, start = set(), 0
    for label, span in table.groups:
        if label.startswith("published"):
            cols |= set(range(start, start + span))
        start += span
    return cols


def _class(name: str, when: bool) -> str:
    return f' class="{name}"' if when else ""


def render_table(table: Table) -> str:
    if table.folded:  # reference a reader opens when needed (the raw settings)
        inner = render_table(Table("", table.headers, table.rows, table.groups, table.notes))
        return (f"<details><summary>{esc(table.title or 'details')}</summary>{inner}"
                "</details>")
    parts = [f"<h3>{esc(table.title)}</h3>"] if table.title else []
    if not table.rows:
        return "".join(parts) + "<p>(none)</p>"
    shaded = _published_columns(table)
    ident = f' id="{esc(table.key)}"' if table.key else ""
    parts.append(f'<div class="scroll"><table{ident}><thead>')
    if table.groups:
        cells = "".join(
            f'<th colspan="{span}"{_class("group-published", label.startswith("published"))}>'
            f"{esc(label)}</th>"
            for label, span in table.groups
        )
        parts.append(f"<tr>{cells}</tr>")
    parts.append("<tr>" + "".join(f"<th>{esc(h)}</th>" for h in table.headers) + "</tr>")
    parts.append("</thead><tbody>")
    for row in table.rows:
        cells = "".join(
            f"<td{_class('published', i in shaded)}>{esc(c)}</td>"
            for i, c in enumerate(row)
        )
        parts.append(f"<tr>{cells}</tr>")
    parts.append("</tbody></table></div>")
    parts.extend(f'<p class="note">{esc(note)}</p>' for note in table.notes)
    return "".join(parts)


def render_section(section: Section, figure_html: str = "") -> str:
    parts = [f"<section><h2>{esc(section.title)}</h2>"]
    parts.extend(f"<p>{esc(p)}</p>" for p in section.paragraphs)
    parts.append(figure_html)
    parts.extend(render_table(t) for t in section.tables)
    parts.append("</section>")
    return "\n".join(parts)


def render_page(title: str, sections: list[Section], figures: dict[str, str],
                results: Sequence[Result] | None = None) -> str:
    """The page; ``figures`` maps a section title to markup placed under its heading. With
    ``results``, the interactive explorer follows the summary and the headline table, so that
    the headline is the first thing a reader sees."""
    rendered = [render_section(s, figures.get(s.title, "")) for s in sections]
    explorer = explorer_markup(results) if results is not None else ""
    if explorer:
        titles = [s.title for s in sections]
        at = titles.index(HEADLINE_TITLE) + 1 if HEADLINE_TITLE in titles else 1
        rendered.insert(min(at, len(rendered)), explorer)
    body = "\n".join(rendered)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(content_security_policy())}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{_CSS}</style></head>\n"
        f"<body><h1>{esc(title)}</h1>\n{body}\n</body></html>\n"
    )


def figure_markup(svg: Path | None, png: Path | None, caption: str) -> str:
    """The plot inline: SVG when there is one (sharp at any zoom), else PNG as a data URI."""
    if svg is not None and svg.exists():
        content = inline_svg(svg.read_text(encoding="utf-8"))
    elif png is not None and png.exists():
        content = f'<img alt="{esc(caption)}" src="{png_data_uri(png)}">'
    else:
        return ""
    return f"<figure>{content}<figcaption>{esc(caption)}</figcaption></figure>"


def content_security_policy() -> str:
    """No network loads of any kind; only the explorer's own script runs."""
    return ("default-src 'none'; " f"script-src {script_hash(EXPLORER_JS)}; "
            "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'")
