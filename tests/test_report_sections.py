"""The report's structure: sections from one list, architectures classified where they are
declared, tables read by header, one findings mechanism."""

from __future__ import annotations

import pytest

from cipherbench.arch.registry import ARCHITECTURES, SHAPES, ArchShape, classify
from cipherbench.report import SECTIONS, build_sections
from cipherbench.report.findings import Finding, findings_table, tally, threshold_verdict
from cipherbench.report.section import ReportInput
from cipherbench.report.tables import Table
from cipherbench.spec import parse


def _shape(design: str) -> ArchShape:
    spec = parse(design)
    return classify(spec.arch, spec.param_dict)


def test_every_section_is_listed_once_in_report_order() -> None:
    titles = [s.title for s in SECTIONS]
    assert len(titles) == len(set(titles))
    assert titles[:2] == ["Summary", "Headline: best figures per design and target"]
    assert titles[-2:] == ["Failed runs", "Provenance"]


def test_no_rows_leave_only_the_sections_that_always_apply() -> None:
    given = ReportInput([], [])
    shown = [s.title for s in SECTIONS if s.applies(given)]
    assert [s.title for s in build_sections([])] == shown
    # the seeds' sections and the software baseline need rows (or a baseline) of their own
    assert not any(t.startswith(("NSA", "Sugawara", "Gaj", "Fischer", "Papaefstathiou",
                                 "Software")) for t in shown)
    assert "Results per target" in shown and "Throughput vs area" in shown


def test_architectures_are_classified_where_they_are_declared() -> None:
    loop = _shape("aes-128/iterative")
    assert loop.loop and loop.nsa_architecture == "iterative" and loop.structure == (1, 1, 1)
    stored = _shape("aes-128/iterative:keys=stored")
    assert stored.basic_iterative and not stored.loop and stored.structure is None
    full = _shape("aes-128/pipelined")
    assert full.full_pipeline and full.nsa_architecture == "pipelined"
    assert full.structure == (1, -1, 1)
    one = _shape("aes-128/pipelined:inner=1,sbox=bram,stages=1")
    assert one.single_round_unit and one.nsa_architecture is None and one.structure == (1, 1, 2)
    assert _shape("serpent-128/unrolled:k=8").rounds_per_clock == 8
    narrow = _shape("twofish-128/narrow:width=64")
    assert narrow.compact and narrow.datapath_bits == 64 and narrow.structure is None
    assert _shape("aes-128/masked").masked
    assert set(SHAPES) == set(ARCHITECTURES)  # every declared architecture is classified


def test_a_table_is_read_by_its_headers() -> None:
    table = Table("t", ["cipher", "Mbps", "Mbps"], [["aes", "1", "2"], ["des", "3", "4"]])
    assert table.column("Mbps") == ["1", "3"]  # a repeated header: its first column
    assert table.records()[1] == {"cipher": "des", "Mbps": "3"}
    assert table.row_where("cipher", "des")["Mbps"] == "3"
    assert table.rows_where("cipher", "rc6") == []
    with pytest.raises(KeyError, match="no column 'GE'"):
        table.column("GE")
    with pytest.raises(KeyError, match="no row with cipher = 'rc6'"):
        table.row_where("cipher", "rc6")


def test_findings_are_set_out_in_the_sections_columns() -> None:
    found = [Finding("fast", "yes", {"ours": "2"}), Finding("small", "not measured", {"ours": "-"})]
    table = findings_table("claims", ["claim", "ours", "holds"], found)
    assert table.rows == [["fast", "2", "yes"], ["small", "-", "not measured"]]
    assert tally(f.verdict for f in found) == (1, 1, 1)
    assert threshold_verdict(1500.0, 1570.0, higher_is_better=False) == "yes"
    assert threshold_verdict(0.889, 1.19, higher_is_better=True) == "no"
    assert threshold_verdict(None, 1.0, higher_is_better=True) == "not measured"
