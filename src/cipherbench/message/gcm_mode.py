"""GCM as a mode over a block-cipher core: what the engine kind (kinds/engine.py) asks of a mode.

An AES-GCM engine is named ``aes-128-gcm/iterative:ghash=serial16`` (docs/spec.md): the block
core's spec with the mode after its key size, the core's parameters and the mode's in one list.
The core is built by its generator with ``ops=encrypt`` (GCM uses the cipher's encryption only)
and wrapped by :func:`~.gcm_engine.gcm_engine_design`; the mode's parameters are below. What is
refused, each in one line when the name is read: a cipher whose blocks are not 128 bits, a cipher
no independent GCM implementation knows (nothing to verify the engine against), a core without
the common interface (``keys=loaded``, the masked architecture), and an engine of several key
sizes (it loads one). The engine takes 96-bit IVs and gives 128-bit tags: the LWC API's
fixed-size NPUB and TAG segments; other IV and tag lengths are refused where vectors are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cipherbench.ciphers.registry import CipherInfo, Param
from cipherbench.components.ghash_mul import DIGITS, STAGES
from cipherbench.errors import CipherbenchError

from .gcm import GcmAead
from .kat import AeadRecord

if TYPE_CHECKING:
    from cipherbench.spec import DesignSpec

    from .lwc_io import LwcDesign

BLOCK_BITS = 128
IV_BYTES, TAG_BYTES = 12, 16
# The generators whose cores a GCM layer drives (they have the common stream interface).
ARCHITECTURES = ("iterative", "unrolled", "pipelined", "narrow")

_GHASH = ("karatsuba", "schoolbook", "karatsuba2", *(f"serial{d}" for d in DIGITS),
          *(f"pipelined{k}" for k in STAGES))
PARAMS: dict[str, Param] = {
    "ghash": Param(_GHASH, "karatsuba",
                   "GHASH multiplier: karatsuba (one Karatsuba level over schoolbook halves), "
                   "karatsuba2 (two levels), schoolbook (one clock a product each), serialD "
                   "(digit-serial, D bits of a product a clock: 128/D clocks; serial1 is "
                   "bit-serial), pipelinedK (K stages of 128/K bits, K interleaved lanes in "
                   "H^K: a block a clock at a shorter clock period; (K - 1) K clocks more key "
                   "setup for H^2 .. H^K, 2K + 1 more for the tag)"),
    "w": Param(("32", "128", "16", "8"), "32",
               "LWC data port width in bits (pdi/do; 128: the API widened to a block a word, "
               "for engines that take a block a clock); the key port sdi is 32 bits wide (8 and "
               "16 at those widths)"),
    "decouple": Param(("no", "yes"), "no",
                      "yes: the core's streams behind three-entry FIFOs, so no combinational "
                      "path runs from the front end's handshakes into the core"),
    "ahead": Param(("64", "1", "2", "4", "8", "16", "32"), "64",
                   "at most this many counter blocks in the core at once (a pipeline fills "
                   "during the AD up to it)"),
}


class GcmMode:
    """GCM (NIST SP 800-38D) over a 128-bit block cipher, behind the LWC API."""

    name = "gcm"
    title = "GCM (NIST SP 800-38D): CTR encryption and a GHASH tag"
    params = PARAMS
    architectures = ARCHITECTURES

    def refusal(self, cipher: CipherInfo) -> str | None:
        """Why GCM is not offered over ``cipher`` (one line), or None."""
        if cipher.block_bits != BLOCK_BITS:
            return (f"GCM needs a 128-bit block cipher; {cipher.name} has {cipher.block_bits}-bit "
                    f"blocks (GCM is offered over {', '.join(offered_ciphers())})")
        if not cipher.gcm_oracles:
            return (f"no independent GCM implementation of {cipher.name} is known to verify an "
                    f"engine against; GCM is offered over {', '.join(offered_ciphers())}")
        return None

    def design(self, core: DesignSpec, params: dict[str, str]) -> LwcDesign:
        """The LWC design of GCM over the block core ``core`` with the mode's ``params``."""
        from .gcm_engine import gcm_engine_design

        w = int(params["w"])
        ghash = params["ghash"]
        kind = next((k for k in ("serial", "pipelined") if ghash.startswith(k)), None)
        multiplier = f"{kind}:{ghash.removeprefix(kind)}" if kind else ghash
        return gcm_engine_design(str(core), w, multiplier, sw=min(w, 32),
                                 ahead=int(params["ahead"]), decouple=params["decouple"] == "yes")

    def model(self, cipher: str, key_bits: int) -> GcmAead:
        return GcmAead(cipher, key_bits)

    def known_answers(self, cipher: CipherInfo, key_bits: int
                      ) -> list[tuple[str, str, list[AeadRecord]]]:
        """(set name, operation, records) of the cipher's CAVP GCM files for ``key_bits``: the
        records with a 96-bit IV and a 128-bit tag, as LWC KAT records (CT = ciphertext || tag;
        a FAIL record has no PT)."""
        from .cavp import cavp_gcm_file, read_cavp_gcm

        sets = []
        for template in cipher.gcm_known_answers:
            name = template.format(bits=key_bits)
            records = read_cavp_gcm(cavp_gcm_file(name))
            taken = [AeadRecord(n, r.key, r.iv, r.ad, r.pt, r.ct + r.tag)
                     for n, r in enumerate(records, 1)
                     if r.param("IVlen") == 8 * IV_BYTES and r.param("Taglen") == 8 * TAG_BYTES]
            op = "encrypt" if records and records[0].encrypt else "decrypt"
            sets.append((f"CAVP {name}", op, taken))
        return sets

    def oracles(self, cipher: str) -> tuple[str, ...]:
        from .gcm_oracles import gcm_oracles

        return gcm_oracles(cipher)

    def oracle_encrypt(self, oracle: str, cipher: str,
                       rows: list[tuple[bytes, bytes, bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """(ciphertext, tag) of rows (key, iv, ad, pt) by the independent implementation."""
        from .gcm_oracles import gcm_encrypt

        return gcm_encrypt(oracle, cipher, [(k, iv, ad, pt, TAG_BYTES) for k, iv, ad, pt in rows])


def offered_ciphers() -> list[str]:
    """The registry's ciphers GCM is offered over (128-bit blocks, an independent GCM)."""
    from cipherbench.ciphers.registry import ciphers

    return [c.name for c in ciphers().values()
            if c.block_bits == BLOCK_BITS and c.gcm_oracles and c.hardware is not None]


GCM = GcmMode()
MODES = {GCM.name: GCM}
