"""Synthesis flows behind one interface: generic gates, ASIC (Liberty + STA), FPGA (place and
route), ASIC layout (qflow place and route + STA), de-synchronized ASIC (timed simulation)."""

from __future__ import annotations

from ..errors import CipherbenchError
from .asic import AsicFlow
from .base import Flow, FlowResult
from .desync.flow import DesyncFlow
from .fpga import FpgaFlow
from .generic import GenericFlow
from .layout import LayoutFlow

FLOWS: dict[str, Flow] = {flow.name: flow for flow in (GenericFlow(), AsicFlow(), FpgaFlow(), LayoutFlow(),
                                                       DesyncFlow())}


def get_flow(name: str) -> Flow:
    try:
        return FLOWS[name]
    except KeyError:
        raise CipherbenchError(f"unknown flow {name!r}; valid: {', '.join(FLOWS)}") from None


__all__ = ["FLOWS", "Flow", "FlowResult", "get_flow"]
