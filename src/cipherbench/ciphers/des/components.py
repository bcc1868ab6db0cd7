"""DES's components for the catalog (cipherbench characterize): the S-box layer."""

from __future__ import annotations

from ...components.catalog import CatalogEntry
from ...components.des_sbox import DesSboxLayer


def catalog_entries() -> list[CatalogEntry]:
    return [CatalogEntry("des-sbox", "DES S-boxes S1..S8 side by side (48 -> 32 bits)",
                         DesSboxLayer, ("i",), ("o",), {})]
