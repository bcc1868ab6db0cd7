"""Published figures (report/<seed>/published.py) against the seed texts, completeness, columns.

The seed checks parse the tables of the OCR/markdown seed files and compare every recorded cell
with them; they skip (with the reason) where /work/shared/seeds is not available.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cipherbench.ciphers.registry import ciphers

from cipherbench import metrics
from cipherbench.report import names as cipher_names
from cipherbench.report import published as pub
from cipherbench.report.fischer import published as fischer
from cipherbench.report.gaj import published as gaj
from cipherbench.report.nsa import published as nsa
from cipherbench.report.papaefstathiou import published as papa
from cipherbench.report.sugawara import published as sugawara
from cipherbench.report.tables import Table
from cipherbench.store import Result, cache_key
from cipherbench.report.nsa import parameters as nsa_parameters

SEEDS = Path("/work/shared/seeds")


def _seed(prefix: str) -> str:
    if not SEEDS.is_dir():
        pytest.skip(f"seed texts not available ({SEEDS} absent)")
    files = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    if not files:
        pytest.skip(f"seed {prefix} not found under {SEEDS}")
    return files[0].read_text(encoding="utf-8")


def _num(cell: str) -> float:
    match = re.search(r"-?[\d,]*\.?\d+", cell)
    assert match, f"no number in {cell!r}"
    return float(match.group(0).replace(",", ""))


def _caption_index(lines: list[str], caption: str) -> int:
    pattern = re.compile(rf"^{re.escape(caption)}(?!\d)")
    hits = [i for i, line in enumerate(lines) if pattern.match(line.strip())]
    assert hits, f"caption {caption!r} not in the seed text"
    return hits[0]


# --- seed 000: NSA ---------------------------------------------------------------------------


def _markdown_rows_before(text: str, caption: str) -> list[list[str]]:
    """Cells of the markdown table printed just above ``caption`` (NSA tables)."""
    lines = text.splitlines()
    i = _caption_index(lines, caption) - 1
    rows: list[list[str]] = []
    while i >= 0 and not lines[i].startswith("|"):
        i -= 1
    while i >= 0 and lines[i].startswith("|"):
        rows.insert(0, [c.strip() for c in lines[i].strip().strip("|").split("|")])
        i -= 1
    return rows


_NSA_LABELS = (("Area", "area_um2"), ("Transistor Count", "transistors"),
               ("Input/Outputs", "io_count"), ("Throughput", "throughput_mbps"),
               ("Key Setup Time Encrypt", "key_setup_encrypt_ns"),
               ("Key Setup Time Decrypt", "key_setup_decrypt_ns"),
               ("Algorithm Setup", "algorithm_setup_ns"), ("Time to Encrypt", "time_to_encrypt_ns"),
               ("Time to Decrypt", "time_to_decrypt_ns"))
_PER_DESIGN = {"area_um2", "transistors", "io_count", "algorithm_setup_ns"}


def _metric(label: str) -> str:
    return next(metric for prefix, metric in _NSA_LABELS if label.startswith(prefix))


def _check_cell(col: nsa.PublishedColumn, metric: str, keys: list[int], cell: str) -> None:
    if metric in _PER_DESIGN:
        assert getattr(col, metric) == _num(cell), (col.label, metric, cell)
        return
    for key in keys:
        if "/" in cell:  # "0/29.28*": key setup / key agility
            setup, agility = (_num(part) for part in cell.split("/"))
            direction = "encrypt" if "encrypt" in metric else "decrypt"
            assert getattr(col, f"key_agility_{direction}_ns")[key] == agility, (col.label, cell)
        else:
            setup = _num(cell)
            direction = "encrypt" if "encrypt" in metric else "decrypt"
            if metric.startswith("key_setup"):
                assert key not in getattr(col, f"key_agility_{direction}_ns"), (col.label, cell)
        assert getattr(col, metric)[key] == setup, (col.label, metric, key, cell)


_NSA_CAPTIONS = {"Table 1": "Table 1 MARS Summary", "Table 2": "Table 2 - MARS 128 Bit Key",
                 "Table 3": "Table 3 RC6 3-in-1", "Table 4": "Table 4 RC6 128 Bit",
                 "Table 5": "Table 5 RIJNDAEL 3-in-1", "Table 6": "Table 6 - RIJNDAEL 128 Bit",
                 "Table 8": "Table 8 SERPENT Summary", "Table 9": "Table 9 TWOFISH Summary",
                 "Table 10": "Table 10 - Twofish 128 Bit"}


@pytest.mark.parametrize("key", sorted(nsa.NSA_TABLES, key=lambda k: nsa.NSA_TABLES[k][0].table))
def test_nsa_tables_match_every_cell_of_the_seed(key: tuple[str, str]) -> None:
    text = _seed("000")
    columns = nsa.NSA_TABLES[key]
    rows = _markdown_rows_before(text, _NSA_CAPTIONS[columns[0].table])
    keyed = "Key Size Selected" in rows[0]
    label, checked = "", 0
    for cells in rows[2:]:
        if set(cells[0]) <= {"-"} and cells[0]:
            continue  # the |---| separator
        label = cells[0] or label
        values = cells[2:6] if keyed else cells[1:5]
        if not values or values[0] in ("Min.", ""):
            continue
        if keyed and cells[1] != "-":
            keys = [int(_num(cells[1]))]
        else:
            keys = list(columns[0].throughput_mbps)
        for col, cell in zip(columns, values, strict=True):
            _check_cell(col, _metric(label), keys, cell)
            checked += 1
    assert checked >= 36  # 9 rows x 4 columns at least


def test_nsa_cores_and_labels() -> None:
    for (cipher, cores), columns in nsa.NSA_TABLES.items():
        assert [(c.architecture, c.bound) for c in columns] == [
            ("iterative", "min"), ("iterative", "max"), ("pipelined", "min"), ("pipelined", "max")]
        assert {c.cipher for c in columns} == {cipher} and {c.cores for c in columns} == {cores}
        if cores == "128-bit":
            assert all(c.key_sizes == (128,) for c in columns)
        else:
            assert all(c.key_sizes == (128, 192, 256) for c in columns)


@pytest.mark.parametrize("table", sorted(nsa.NSA_SUMMARIES))
def test_nsa_summary_tables_match_the_seed(table: str) -> None:
    rows = _markdown_rows_before(_seed("000"), table)
    header = next(r for r in rows if "MARS" in r)
    ciphers = [cipher_names.project_cipher(name) for name in header[1:]]
    checked = 0
    for cells in rows:
        if not cells[0] or cells[0] in ("Parameter",) or set(cells[0]) <= {"-"}:
            continue
        metric = _metric(cells[0])
        for cipher, cell in zip(ciphers, cells[1:], strict=True):
            assert nsa.NSA_SUMMARIES[table][cipher][metric] == _num(cell), (table, cipher, metric)
            checked += 1
    assert checked == 45


@pytest.mark.parametrize("table", ["Table 13", "Table 14", "Table 17", "Table 18"])
def test_nsa_throughput_per_area_match_the_seed(table: str) -> None:
    rows = [r for r in _markdown_rows_before(_seed("000"), table)
            if r[0] and r[0] not in ("Algorithm",) and not set(r[0]) <= {"-"}]
    ours = [r for r in nsa.NSA_THROUGHPUT_PER_AREA if r.table == table]
    assert [r.row for r in ours] == [cells[0] for cells in rows]
    for row, cells in zip(ours, rows, strict=True):
        assert row.speeds == tuple(_num(c) for c in cells[1:6])
        assert row.percent_change == _num(cells[6])


def test_nsa_table_7_serpent_key_setup_reduction() -> None:
    rows = _markdown_rows_before(_seed("000"), "Table 7")
    for cells in rows[2:]:
        values = nsa.TABLE_7[cells[0]]
        assert values["key_setup_decrypt_ns"] == _num(cells[1])
        assert values["area_um2"] == _num(cells[2])


def test_existing_rijndael_columns_unchanged() -> None:
    # The figures test_report/test_metrics rely on.
    t5 = {(c.architecture, c.bound): c for c in nsa.TABLE_5}
    assert t5["iterative", "min"].throughput_mbps[128] == 190.05
    assert t5["pipelined", "min"].key_agility_encrypt_ns == {128: 29.28, 192: 29.28, 256: 29.28}
    assert nsa.TABLE_6[1].area_um2 == 33_851_050 and nsa.TABLE_6[3].time_to_encrypt_ns[128] == 304.7


# --- completeness and lookups ----------------------------------------------------------------


def test_five_finalists_have_all_nsa_tables() -> None:
    for cipher in nsa.NSA_CIPHERS:
        for three_in_one in (True, False):
            for arch in ("iterative", "pipelined"):
                cols = nsa.nsa_columns_for(f"{cipher}{'' if three_in_one else '-128'}/{arch}",
                                           [128, 192, 256] if three_in_one else [128])
                assert [c.bound for c in cols] == ["min", "max"], (cipher, three_in_one, arch)
                assert {c.architecture for c in cols} == {arch}
    # Strictly what is printed: no 128-bit SERPENT table (section 5.4.1.5) ...
    assert nsa.nsa_columns("SERPENT", "iterative", three_in_one=False) == ()
    # ... so 128-bit SERPENT cores are compared with Table 8, saying so.
    cols = nsa.nsa_columns_for("serpent-128/iterative", [128])
    assert {c.table for c in cols} == {"Table 8"} and all("5.4.1.5" in c.note for c in cols)
    assert len(nsa.nsa_columns("RIJNDAEL")) == 4 and len(nsa.nsa_columns("twofish", None, False)) == 4
    assert nsa.nsa_columns_for("camellia/iterative", [128]) == ()
    assert nsa.nsa_columns_for("des/iterative", [56]) == ()
    assert nsa.columns_for("serpent/iterative", [128]) == ()  # AES-only legacy entry point


def test_cipher_names_map_to_the_project() -> None:
    names = {"RIJNDAEL": "aes", "Rijndael": "aes", "TWOFISH256": "twofish", "RC6™": "rc6",
             "CAST-128": "cast128", "MISTY1": "misty1", "Triple DES": "tdea", "Camellia": "camellia",
             "SEED": "seed", "DES": "des", "MARS": "mars", "Serpent": "serpent"}
    for seed_name, project in names.items():
        assert cipher_names.project_cipher(seed_name) == project
    with pytest.raises(KeyError):
        cipher_names.project_cipher("IDEA")
    assert cipher_names.design_cipher("cast128-128/iterative") == "cast128"
    assert cipher_names.design_cipher("rijndael/pipelined") == "aes"


def test_every_figure_is_referenced() -> None:
    figs = pub.all_figures()
    assert {f.seed for f in figs} == set(pub.SEEDS)
    for f in figs:
        assert f.cipher in ciphers() or (f.seed == "004" and f.metric == "logic_elements")
        assert f.section, f
        assert f.value is not None, f
        assert f.table.startswith("Table ") or f.table == "", f
    assert pub.figures(seed="000", table="Table 8", cipher="SERPENT", metric="throughput_mbps")
    nsa_tables = {f.table for f in pub.figures(seed="000")}
    assert nsa_tables == {f"Table {n}" for n in range(1, 19)}


def test_gaj_tables_cover_all_five_finalists() -> None:
    assert set(gaj.GAJ_CIPHERS) == set(nsa.NSA_CIPHERS)
    assert {c: r.extra_logic_percent for c, r in gaj.GAJ_CIPHERS.items()} == {
        "twofish": 6, "mars": 3, "rc6": 20, "aes": 55, "serpent": 100}
    assert [c for c, fits in gaj.GAJ_FITS_XC4000.items() if fits] == ["twofish", "rc6"]
    # Formula (1) with Table III's XC4000 clock periods reproduces Table I's smaller devices.
    assert gaj.gaj_basic_throughput_mbps("twofish", "xc4000") == pytest.approx(90.9, abs=0.05)
    assert gaj.gaj_basic_throughput_mbps("rc6", "xc4000") == pytest.approx(45.9, abs=0.05)
    assert gaj.gaj_basic_throughput_mbps("serpent", "xc4000") is None
    for row in gaj.GAJ_TABLE_I:  # speed/area column = speed / area
        assert row.throughput_mbps * 1000 / row.area_clbs == pytest.approx(
            row.throughput_per_area_kbps_per_clb, abs=0.05)


def test_sugawara_table1_has_every_cipher_row() -> None:
    rows = sugawara.sugawara_table1()
    assert len(rows) == 20
    counts = {c: sum(r.cipher == c for r in rows) for c in
              ("aes", "camellia", "seed", "tdea", "misty1", "cast128")}
    assert counts == {"aes": 5, "camellia": 3, "seed": 4, "tdea": 2, "misty1": 4, "cast128": 2}
    for row in rows:  # throughput = block bits x f / cycles, efficiency = throughput / gates
        assert row.block_bits * row.freq_mhz / row.cycles == pytest.approx(row.throughput_mbps,
                                                                            rel=0.003)
        assert row.throughput_mbps / row.area_kgates == pytest.approx(
            row.efficiency_kbps_per_gate, rel=0.01)
    assert {r.architecture for r in rows if r.cipher == "seed"} == {"straightforward", "compact"}
    assert sugawara.SUGAWARA_TABLE_2["seed"] is None and sugawara.SUGAWARA_TABLE_2["aes"] == 488.08


def test_fischer_configurations_complete() -> None:
    for cipher in ("aes", "serpent", "twofish"):
        for configuration in ("fast", "fair", "minimum"):
            rows = fischer.fischer_configurations(cipher, configuration)
            assert [r.mode for r in rows] == ["encrypt", "decrypt", "both"]
    assert set(fischer.FISCHER_TABLE_1) == set(nsa.NSA_CIPHERS)


# --- seeds 001-004 against their texts -------------------------------------------------------


def _between(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i:text.index(end, i)]


def test_gaj_values_appear_in_the_seed() -> None:
    text = _seed("001")
    table_i = _between(text, "Speed [Mbit/s]", "Table I.")
    assert re.findall(r"\d+\.\d", table_i) == [
        *(f"{r.throughput_mbps}" for r in gaj.GAJ_TABLE_I),
        *(f"{r.throughput_per_area_kbps_per_clb}" for r in gaj.GAJ_TABLE_I)]
    areas = [x for x in re.findall(r"^\d{3,4}$", table_i, flags=re.MULTILINE) if x != "4085"]
    assert areas == [str(r.area_clbs) for r in gaj.GAJ_TABLE_I]  # 4085: the device name
    table_ii = _between(text, "Extra logic\n", "Table II.")
    for c in gaj.GAJ_CIPHERS.values():
        assert c.extra_logic in table_ii
        assert f"{c.extra_logic_percent:g}%" in table_ii
    table_iii = _between(text, "Minimum\nclock period XC4000", "Table III.")
    printed = re.findall(r"^(\d+(?:\.\d)?|-)$", table_iii, flags=re.MULTILINE)
    ours = []
    for cipher in ("aes", "twofish", "serpent", "rc6", "mars"):  # printed order
        c = gaj.GAJ_CIPHERS[cipher]
        xc = "-" if c.clock_period_xc4000_ns is None else f"{c.clock_period_xc4000_ns:.1f}"
        ours += [f"{c.clock_period_virtex_ns:.1f}", xc, str(c.rounds)]
    assert printed == ours
    flat_iii = " ".join(table_iii.split())
    for c in gaj.GAJ_CIPHERS.values():
        assert " ".join(c.critical_path.split()) in flat_iii
        assert " ".join(c.critical_path_operations.split()) in flat_iii
    table_iv = _between(text, "# of CLB slices", "Table IV.")
    for c in gaj.GAJ_CIPHERS.values():
        assert str(c.area_slices_virtex) in table_iv
        printed_components = c.area_critical_components.replace("GF(2^8)", "GF(28)")
        assert " ".join(printed_components.split()) in " ".join(table_iv.split())
    assert "from 9% (for Twofish) to 38% (for Serpent)" in text
    assert "fit ten RC6 rounds and eight Twofish rounds" in text
    for claim in gaj.GAJ_CLAIMS:  # section 8, in words
        assert claim.text.split(" (")[0] in text


def test_papaefstathiou_tables_match_the_seed() -> None:
    text = _seed("002")
    lines = text.splitlines()

    def block(table: str) -> list[list[str]]:
        i = lines.index(table + "  ") if table + "  " in lines else lines.index(table)
        rows: list[list[str]] = []
        for line in lines[i + 2:]:
            if not line.strip():
                if rows:
                    break
                continue
            rows.append(line.split("\t"))
        return rows[1:]  # drop the header

    for table in ("Table 8", "Table 9", "Table 10", "Table 11", "Table 12", "Table 13",
                  "Table 14"):
        ours = [h for h in papa.PAPA_HARDWARE if h.table == table]
        printed = block(table)
        assert [r[0] for r in printed] == [h.design for h in ours]
        for h, cells in zip(ours, printed, strict=True):
            assert (h.latency_ns, h.throughput_gbps, h.power_mw, h.area_kum2) == tuple(
                _num(c) for c in cells[1:5]), (table, h.design)
    for table in ("Table 1", "Table 2", "Table 3", "Table 4", "Table 5", "Table 6"):
        printed = [r for r in block(table) if len(r) == 7 and r[0]]
        assert len(printed) == 4
        for cipher, offset in (("des", 1), ("aes", 4)):
            ours = [s for s in papa.PAPA_SOFTWARE if s.table == table and s.cipher == cipher]
            for s, cells in zip(ours, printed, strict=True):
                thr = None if cells[offset + 2] == "N/A" else _num(cells[offset + 2])
                assert (s.latency_ns, s.instruction_count, s.throughput_mbps) == (
                    _num(cells[offset]), _num(cells[offset + 1]), thr), (table, cipher, s.step)
    assert "DES or AES on one microengine in IXP1200\t1.8" in text
    assert "DES or AES on six microengines in IXP1200\t3.2" in text
    assert "dropped to 171.38 mW; for the asynchronous it dropped to 12.78 mW" in text


def test_papaefstathiou_async_findings_are_quoted_as_printed() -> None:
    """Each finding the report checks on the asynchronous DES quotes the seed word for word,
    and the one figure stated in words (12 %) is recorded with its quote."""
    text = _seed("002")
    for claim in papa.PAPA_ASYNC_CLAIMS:
        assert claim.quote in text, claim.key
    assert "than the best synchronous one by about 12%" in text
    [figure] = [f for f in papa.records() if f.metric == "performance_to_power_ratio"]
    assert figure.value == papa.PAPA_PO_F_OVER_BEST_SYNC == 1.12
    assert figure.note.endswith("by about 12%")


def test_sugawara_values_match_the_seed() -> None:
    text = _seed("003")
    table = _between(text, "Table 1. Performance comparison in ASIC", "Fig. 11.")
    printed = []
    for line in table.splitlines():
        cells = line.split("\t")
        tail = cells[-4:]
        if len(cells) >= 4 and all(re.fullmatch(r"[\d,]+\.\d", c.strip()) for c in tail):
            printed.append(tuple(_num(c) for c in tail))
    ours = [(r.freq_mhz, r.throughput_mbps, r.area_kgates, r.efficiency_kbps_per_gate)
            for r in sugawara.sugawara_table1()]
    assert ours == printed
    # Cycle counts and key lengths printed at the head of each block.
    for head in ("AES\tEnc.\t128\t128\t10", "Camellia\tEnc./Dec.\t128\t128\t23",
                 "SEED\tEnc./Dec.\t128\t128\t16", "\t\t\t\t52\t", "TDEA\tEnc./Dec.\t64\t56, 112, 168\t48",
                 "MISTY1\tEnc./Dec.\t64\t128\t9", "\t\t\t\t30\t", "CAST-128\tEnc./Dec.\t64\t128\t17"):
        assert head in table
    software = _between(text, "Table 2. Software performance", "for 32-bit MPU")
    for cipher, mbps in sugawara.SUGAWARA_TABLE_2.items():
        name = {"cast128": "CAST-128", "misty1": "MISTY1", "camellia": "Camellia"}.get(
            cipher, cipher.upper())
        assert f"{name}\t{'-' if mbps is None else f'{mbps:.2f}'}" in software
    assert "from 166.2 Mbps with 10.6 K Gates" in text  # the text-only SEED figure


def test_fischer_values_match_the_seed() -> None:
    text = _seed("004")
    ends = {"Table 4": "**Table 5 -", "Table 5": "**Table 6 -", "Table 6": "## 5."}
    for table, end in ends.items():
        block = _between(text, f"**{table} -", end)
        printed: dict[str, list[str]] = {}
        for line in block.splitlines():
            if line.startswith("<b>"):
                cells = line.split("\t")
                printed[cipher_names.project_cipher(re.sub(r"</?b>", "", cells[0]))] = cells[1:]
        assert set(printed) == {"aes", "serpent", "twofish"}
        for cipher, cells in printed.items():
            rows = [c for c in fischer.FISCHER_CONFIGS if c.table == table and c.cipher == cipher]
            for i, config in enumerate(rows):
                assert cells[i] == str(config.eab_subkeys)
                assert cells[3 + i] == ("-" if config.eab_sboxes is None
                                        else str(config.eab_sboxes))
                assert cells[6 + i] == str(config.eab_total)
                assert cells[9 + i] == str(config.logic_elements)
                assert _num(cells[12 + i]) == config.throughput_mbps
    table_1 = _between(text, "**Table 1**", "\\* If S-boxes")

    def row(label: str) -> list[str]:
        line = next(x for x in table_1.splitlines() if x.startswith(label + "\t"))
        return line.split("\t")[1:]

    order = ("mars", "rc6", "aes", "serpent", "twofish")
    params = [fischer.FISCHER_TABLE_1[c] for c in order]
    assert row("Number of rounds") == [p.rounds for p in params]
    assert row("Number of subkeys") == [str(p.subkeys) for p in params]
    assert row("Total RAM bits") == [str(p.ram_bits) for p in params]
    assert row("Number of S-Boxes") == [str(p.sboxes) if p.sboxes else "none" for p in params]
    assert row("Total ROM bits") == [
        "-" if p.rom_bits is None else f"{p.rom_bits}{'*' if p.rom_only_if_lookup else ''}"
        for p in params]
    for (cipher, configuration), periods in fischer.FISCHER_CLOCK_PERIODS.items():
        assert f"{periods} clock periods" in text, (cipher, configuration)
    assert "about 380 Logic Elements" in text


# --- the report: NSA columns for every finalist ----------------------------------------------


def _result(design: str, cycles: dict[str, dict[str, int]]) -> Result:
    measurements = {"area_um2": 19_000.0, "gate_equivalents": 24_000.0, "fmax_mhz": 250.0}
    record = {"block_bits": 128, "io_count": 399, "cycles": cycles, "measurements": measurements}
    target, settings = "asic:nangate45_typ:speed", {"goal": "speed"}
    return Result(cache_key=cache_key(design, target, settings, "d" * 64), design=design,
                  target=target, settings=settings, status="ok", measurements=measurements,
                  cycles=cycles, metrics=metrics.derive(record), provenance={},
                  created="2025-01-01T00:00:00+00:00")


def _cycles(rounds: int) -> dict[str, int]:
    return {"latency": rounds, "latency_decrypt": rounds, "initiation_interval": rounds,
            "cycles_per_chained_block": rounds, "key_setup_encrypt": 0,
            "key_setup_decrypt": rounds, "algorithm_setup": 0}


def _by_parameter(table: Table) -> dict[tuple[str, str], dict[str, str]]:
    """(parameter, key size) -> its row, read by header."""
    return {(r["Parameter"], r["Key size"]): r for r in table.records()}


def _cells(row: dict[str, str], headers: tuple[str, ...]) -> list[str]:
    return [row[h] for h in headers]


def test_serpent_iterative_result_gets_nsa_columns() -> None:
    result = _result("serpent/iterative", {k: _cycles(32) for k in ("128", "192", "256")})
    table = nsa_parameters.parameter_table("serpent/iterative", [result])
    assert table.headers[-2:] == ["NSA Table 8 3-in-1 iterative min",
                                  "NSA Table 8 3-in-1 iterative max"]
    assert ("published (NSA, 0.5 um)", 2) in table.groups
    rows = _by_parameter(table)
    nsa = ("NSA Table 8 3-in-1 iterative min", "NSA Table 8 3-in-1 iterative max")
    assert _cells(rows["Area (um2)", "-"], nsa) == ["13,779,834", "23,274,086"]
    assert _cells(rows["Throughput, non-feedback (Mbps)", "256"], nsa) == ["102.00", "202.30"]
    assert _cells(rows["Key setup time decrypt (ns)", "128"], nsa) == ["672.18", "1,333.14"]
    assert any("Table 8 (section 5.4.2)" in note for note in table.notes)


def test_128_bit_serpent_and_pipelined_twofish_columns() -> None:
    serpent = nsa_parameters.parameter_table(
        "serpent-128/iterative", [_result("serpent-128/iterative", {"128": _cycles(32)})])
    assert "NSA Table 8 3-in-1 iterative max" in serpent.headers
    assert any("5.4.1.5" in note for note in serpent.notes)
    twofish = nsa_parameters.parameter_table(
        "twofish/pipelined", [_result("twofish/pipelined",
                                      {k: _cycles(16) for k in ("128", "192", "256")})])
    assert twofish.headers[-2:] == ["NSA Table 9 3-in-1 pipelined min",
                                    "NSA Table 9 3-in-1 pipelined max"]
    rows = _by_parameter(twofish)
    nsa = ("NSA Table 9 3-in-1 pipelined min", "NSA Table 9 3-in-1 pipelined max")
    assert _cells(rows["Key setup time decrypt (ns)", "192"], nsa) == ["0/65.63*", "0/127.42*"]
    assert _cells(rows["Throughput, non-feedback (Mbps)", "192"], nsa) == ["1,164", "1,957"]
    assert any("key agility" in note for note in twofish.notes)
    mars = nsa_parameters.parameter_table("mars-128/iterative",
                                  [_result("mars-128/iterative", {"128": _cycles(32)})])
    assert "NSA Table 2 128-bit iterative min" in mars.headers
    assert any("Table 15" in note for note in mars.notes)  # the printed-inconsistency note
    camellia = nsa_parameters.parameter_table("camellia/iterative",
                                      [_result("camellia/iterative", {"128": _cycles(18)})])
    assert not any(h.startswith("NSA") for h in camellia.headers)
