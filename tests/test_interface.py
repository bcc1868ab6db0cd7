"""The core interface as Amaranth signatures (interface.py): port names, order and directions as
docs/interface.md documents them, read off one signature; directions checked by connect."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from amaranth.hdl import Module
from amaranth.lib.wiring import ConnectionError, In, Out, connect, flipped

from cipherbench.interface import CoreShape, CoreSignature, round_key_port

SHAPE = CoreShape(block_bits=128, key_sizes=(128, 192, 256))

COMMON = [("clk", "in", 1), ("rst", "in", 1),
          ("key", "in", 256), ("key_len", "in", 6), ("key_valid", "in", 1), ("key_ready", "out", 1),
          ("in_block", "in", 128), ("in_decrypt", "in", 1), ("in_valid", "in", 1),
          ("in_ready", "out", 1),
          ("out_block", "out", 128), ("out_valid", "out", 1), ("out_ready", "in", 1)]


DOC = Path(__file__).resolve().parent.parent / "docs" / "interface.md"


def _documented(section: str) -> list[tuple[str, str]]:
    """(port, dir) rows of the first table under ``section`` in docs/interface.md."""
    text = DOC.read_text().split(section, 1)[1]
    table = text.split("\n\n| port |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `(\w+)` \| (in|out) \|", table, flags=re.M)


def _rows(ports: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(p["name"], p["dir"], p["width"]) for p in ports]


def test_common_ports_are_the_documented_ones_in_order() -> None:
    io = SHAPE.signature().create()
    assert _rows(io.ports()) == COMMON
    assert _rows(SHAPE.ports()) == COMMON
    assert [sig.name for sig in io.port_list()] == [name for name, _, _ in COMMON[2:]]
    assert SHAPE.io_count() == sum(width for _, _, width in COMMON)


def test_ports_are_the_ones_docs_interface_md_lists() -> None:
    common = _documented("## Ports")
    assert [(n, d) for n, d, _ in _rows(SHAPE.ports())] == common
    loaded = CoreSignature(SHAPE, round_keys=(5, 128)).create().ports()
    round_key_port_rows = _documented("## Cores with loaded round keys")
    expected = [row for row in common if row[0] != "key"]
    at = [n for n, _ in expected].index("key_ready") + 1
    expected[at:at] = round_key_port_rows
    assert [(p["name"], p["dir"]) for p in loaded] == expected


def test_loaded_ports_replace_key_with_the_round_key_port() -> None:
    io = CoreSignature(SHAPE, round_keys=(5, 128)).create()
    names = [name for name, _, _ in _rows(io.ports())]
    assert names == ["clk", "rst", "key_len", "key_valid", "key_ready", "rk_we", "rk_addr",
                     "rk_data", "in_block", "in_decrypt", "in_valid", "in_ready",
                     "out_block", "out_valid", "out_ready"]
    assert ("rk_addr", "in", 5) in _rows(io.ports())
    assert not hasattr(io.key, "data")


def test_channels_are_streams_with_the_core_receiving_key_and_input() -> None:
    sig = SHAPE.signature()
    assert sig.members["key"].flow == In and sig.members["inp"].flow == In
    assert sig.members["out"].flow == Out
    io = sig.create()
    assert sig.is_compliant(io)
    # Explicit names, not Amaranth's flattened ones (key__valid).
    assert (io.key.valid.name, io.inp.block.name, io.out.ready.name) == \
        ("key_valid", "in_block", "out_ready")


def _module() -> Module:
    m = Module()
    m._MustUse__silence = True  # type: ignore[attr-defined]  # never elaborated: a check only
    return m


def test_connect_checks_directions() -> None:
    a, b = SHAPE.signature().create(), SHAPE.signature().create()
    connect(_module(), a.out, flipped(b.out))  # a core's output passed through: fine
    with pytest.raises(ConnectionError):
        connect(_module(), a.out, b.out)  # two outputs driving each other
    with pytest.raises(ConnectionError):
        connect(_module(), a.out, b.inp)  # output channel into an input channel: members differ


def test_a_channel_of_existing_signals_is_checked() -> None:
    from amaranth.hdl import Signal

    port = round_key_port(4, 32)
    port.of(we=Signal(), addr=Signal(4), data=Signal(32))
    with pytest.raises(TypeError, match="shape"):
        port.of(we=Signal(), addr=Signal(5), data=Signal(32))
