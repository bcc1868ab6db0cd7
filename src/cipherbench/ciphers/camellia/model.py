"""Bit-exact Camellia reference model (RFC 3713): 128-bit blocks, 128-, 192- and 256-bit keys.

Byte order: bytes in, bytes out as RFC 3713 writes them: the 128-bit integers M, K and C of the RFC are the
big-endian reading of the byte strings (byte 0 is the most significant byte), which is also the order of
Appendix A, the NTT/NESSIE files and the usual libraries.

Pure Python with precomputed tables: the S-box layer and the P-function of F are merged into eight tables
of 64-bit words (one lookup per byte), and key schedules are cached.
"""

from __future__ import annotations

from functools import lru_cache

from cipherbench.errors import CipherbenchError

from ...components.rotators import rotl
from ..base import checked_bytes

BLOCK_BYTES = 16
KEY_SIZES = (128, 192, 256)

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
MASK128 = (1 << 128) - 1

# RFC 3713 section 2.4.1, SBOX1 (decimal, row = high nibble).
SBOX1: tuple[int, ...] = (
    112, 130, 44, 236, 179, 39, 192, 229, 228, 133, 87, 53, 234, 12, 174, 65,
    35, 239, 107, 147, 69, 25, 165, 33, 237, 14, 79, 78, 29, 101, 146, 189,
    134, 184, 175, 143, 124, 235, 31, 206, 62, 48, 220, 95, 94, 197, 11, 26,
    166, 225, 57, 202, 213, 71, 93, 61, 217, 1, 90, 214, 81, 86, 108, 77,
    139, 13, 154, 102, 251, 204, 176, 45, 116, 18, 43, 32, 240, 177, 132, 153,
    223, 76, 203, 194, 52, 126, 118, 5, 109, 183, 169, 49, 209, 23, 4, 215,
    20, 88, 58, 97, 222, 27, 17, 28, 50, 15, 156, 22, 83, 24, 242, 34,
    254, 68, 207, 178, 195, 181, 122, 145, 36, 8, 232, 168, 96, 252, 105, 80,
    170, 208, 160, 125, 161, 137, 98, 151, 84, 91, 30, 149, 224, 255, 100, 210,
    16, 196, 0, 72, 163, 247, 117, 219, 138, 3, 230, 218, 9, 63, 221, 148,
    135, 92, 131, 2, 205, 74, 144, 51, 115, 103, 246, 243, 157, 127, 191, 226,
    82, 155, 216, 38, 200, 55, 198, 59, 129, 150, 111, 75, 19, 190, 99, 46,
    233, 121, 167, 140, 159, 110, 188, 142, 41, 245, 249, 182, 47, 253, 180, 89,
    120, 152, 6, 106, 231, 70, 113, 186, 212, 37, 171, 66, 136, 162, 141, 250,
    114, 7, 185, 85, 248, 238, 172, 10, 54, 73, 42, 104, 60, 56, 241, 164,
    64, 40, 211, 123, 187, 201, 67, 193, 21, 227, 173, 244, 119, 199, 128, 158,
)  # fmt: skip

# RFC 3713 section 2.2.
SIGMA: tuple[int, ...] = (
    0xA09E667F3BCC908B,
    0xB67AE8584CAA73B2,
    0xC6EF372FE94F82BE,
    0x54FF53A5F1D36F1C,
    0x10E527FADE682D1D,
    0xB05688C2B3E6C1FD,
)


# SBOX2..4 as RFC 3713 defines them from SBOX1.
SBOX2: tuple[int, ...] = tuple(rotl(SBOX1[x], 1, 8) for x in range(256))
SBOX3: tuple[int, ...] = tuple(rotl(SBOX1[x], 7, 8) for x in range(256))
SBOX4: tuple[int, ...] = tuple(SBOX1[rotl(x, 1, 8)] for x in range(256))

# Which S-box each input byte t1..t8 of F goes through, and which t's the P-function XORs into y1..y8.
_F_SBOXES = (SBOX1, SBOX2, SBOX3, SBOX4, SBOX2, SBOX3, SBOX4, SBOX1)
P_FUNCTION: tuple[tuple[int, ...], ...] = (
    (1, 3, 4, 6, 7, 8),
    (1, 2, 4, 5, 7, 8),
    (1, 2, 3, 5, 6, 8),
    (2, 3, 4, 5, 6, 7),
    (1, 2, 6, 7, 8),
    (2, 3, 5, 7, 8),
    (3, 4, 5, 6, 8),
    (1, 4, 5, 6, 7),
)


def _sp_tables() -> tuple[tuple[int, ...], ...]:
    # P is linear, so F's output is the XOR over byte positions of P applied to that byte's S-box output.
    tables = []
    for position in range(1, 9):
        box = _F_SBOXES[position - 1]
        # The output bytes y_j (j = 1..8, y1 most significant) that t_position feeds.
        targets = [j for j, sources in enumerate(P_FUNCTION, start=1) if position in sources]
        table = []
        for x in range(256):
            s = box[x]
            table.append(sum(s << (8 * (8 - j)) for j in targets))
        tables.append(tuple(table))
    return tuple(tables)


_SP = _sp_tables()


def f_function(f_in: int, subkey: int) -> int:
    """F(F_IN, KE) of RFC 3713 section 2.4.1 on 64-bit integers."""
    x = f_in ^ subkey
    s1, s2, s3, s4, s5, s6, s7, s8 = _SP
    return (
        s1[x >> 56]
        ^ s2[(x >> 48) & 0xFF]
        ^ s3[(x >> 40) & 0xFF]
        ^ s4[(x >> 32) & 0xFF]
        ^ s5[(x >> 24) & 0xFF]
        ^ s6[(x >> 16) & 0xFF]
        ^ s7[(x >> 8) & 0xFF]
        ^ s8[x & 0xFF]
    )


def f_function_reference(f_in: int, subkey: int) -> int:
    """F written byte by byte as in the RFC (slow; the tests compare it with the table version)."""
    x = f_in ^ subkey
    t = [_F_SBOXES[i][(x >> (56 - 8 * i)) & 0xFF] for i in range(8)]
    out = 0
    for sources in P_FUNCTION:
        y = 0
        for source in sources:
            y ^= t[source - 1]
        out = (out << 8) | y
    return out


def fl(fl_in: int, subkey: int) -> int:
    """FL of RFC 3713 section 2.4.2."""
    x1, x2 = fl_in >> 32, fl_in & MASK32
    k1, k2 = subkey >> 32, subkey & MASK32
    x2 ^= rotl(x1 & k1, 1)
    x1 ^= x2 | k2
    return (x1 << 32) | x2


def fl_inv(fl_in: int, subkey: int) -> int:
    """FLINV of RFC 3713 section 2.4.2 (the inverse of FL)."""
    y1, y2 = fl_in >> 32, fl_in & MASK32
    k1, k2 = subkey >> 32, subkey & MASK32
    y1 ^= y2 | k2
    y2 ^= rotl(y1 & k1, 1)
    return (y1 << 32) | y2


# --- key schedule ----------------------------------------------------------------------------------------

# (subkey name, source variable, rotation) for each half-pair of the RFC's lists: the name with suffix
# "L"/"R" taking the left (>> 64) or right (& MASK64) half. Transcribed from RFC 3713 section 2.2.
_PAIRS_128: tuple[tuple[str, str, str, int], ...] = (
    ("kw1", "kw2", "KL", 0), ("k1", "k2", "KA", 0), ("k3", "k4", "KL", 15), ("k5", "k6", "KA", 15),
    ("ke1", "ke2", "KA", 30), ("k7", "k8", "KL", 45), ("k9", "", "KA", 45), ("", "k10", "KL", 60),
    ("k11", "k12", "KA", 60), ("ke3", "ke4", "KL", 77), ("k13", "k14", "KL", 94),
    ("k15", "k16", "KA", 94), ("k17", "k18", "KL", 111), ("kw3", "kw4", "KA", 111),
)  # fmt: skip

_PAIRS_256: tuple[tuple[str, str, str, int], ...] = (
    ("kw1", "kw2", "KL", 0), ("k1", "k2", "KB", 0), ("k3", "k4", "KR", 15), ("k5", "k6", "KA", 15),
    ("ke1", "ke2", "KR", 30), ("k7", "k8", "KB", 30), ("k9", "k10", "KL", 45), ("k11", "k12", "KA", 45),
    ("ke3", "ke4", "KL", 60), ("k13", "k14", "KR", 60), ("k15", "k16", "KB", 60), ("k17", "k18", "KL", 77),
    ("ke5", "ke6", "KA", 77), ("k19", "k20", "KR", 94), ("k21", "k22", "KA", 94), ("k23", "k24", "KL", 111),
    ("kw3", "kw4", "KB", 111),
)  # fmt: skip


def _checked_key(key: bytes) -> bytes:
    return checked_bytes(key, "Camellia", "key", (16, 24, 32))


def _checked_block(block: bytes) -> int:
    return int.from_bytes(checked_bytes(block, "Camellia", "block", (BLOCK_BYTES,)), "big")


def key_variables(key: bytes) -> dict[str, int]:
    """KL, KR, KA and KB (128-bit integers) of RFC 3713 section 2.2; KB only for 192/256-bit keys."""
    key = _checked_key(key)
    k = int.from_bytes(key, "big")
    if len(key) == 16:
        kl, kr = k, 0
    elif len(key) == 24:
        kl = k >> 64
        kr = ((k & MASK64) << 64) | (~k & MASK64)
    else:
        kl, kr = k >> 128, k & MASK128
    d1 = (kl ^ kr) >> 64
    d2 = (kl ^ kr) & MASK64
    d2 ^= f_function(d1, SIGMA[0])
    d1 ^= f_function(d2, SIGMA[1])
    d1 ^= kl >> 64
    d2 ^= kl & MASK64
    d2 ^= f_function(d1, SIGMA[2])
    d1 ^= f_function(d2, SIGMA[3])
    ka = (d1 << 64) | d2
    variables = {"KL": kl, "KR": kr, "KA": ka}
    if len(key) != 16:
        d1 = (ka ^ kr) >> 64
        d2 = (ka ^ kr) & MASK64
        d2 ^= f_function(d1, SIGMA[4])
        d1 ^= f_function(d2, SIGMA[5])
        variables["KB"] = (d1 << 64) | d2
    return variables


@lru_cache(maxsize=256)
def _subkeys(key: bytes) -> dict[str, int]:
    variables = key_variables(key)
    pairs = _PAIRS_128 if len(key) == 16 else _PAIRS_256
    subkeys: dict[str, int] = {}
    for left, right, source, rotation in pairs:
        rotated = rotl(variables[source], rotation, 128)
        if left:
            subkeys[left] = rotated >> 64
        if right:
            subkeys[right] = rotated & MASK64
    return subkeys


def rounds(key_bits: int) -> int:
    """18 rounds for 128-bit keys, 24 for 192- and 256-bit keys."""
    if key_bits not in KEY_SIZES:
        raise CipherbenchError(f"Camellia key size must be 128, 192 or 256 bits, got {key_bits}")
    return 18 if key_bits == 128 else 24


def expand_key(key: bytes) -> dict[str, bytes]:
    """The 64-bit subkeys kw1..kw4, k1..k18 (k24) and ke1..ke4 (ke6), 8 bytes big-endian each.

    Ordered as the encryption uses them: kw1, kw2, k1..k6, ke1, ke2, k7..., then kw3, kw4.
    """
    key = _checked_key(key)
    subkeys = _subkeys(key)
    order = _encryption_order(rounds(len(key) * 8))
    return {name: subkeys[name].to_bytes(8, "big") for name in order}


def _encryption_order(n_rounds: int) -> list[str]:
    order = ["kw1", "kw2"]
    for r in range(1, n_rounds + 1):
        order.append(f"k{r}")
        if r % 6 == 0 and r != n_rounds:
            layer = r // 6
            order += [f"ke{2 * layer - 1}", f"ke{2 * layer}"]
    return order + ["kw3", "kw4"]


def _decryption_subkeys(subkeys: dict[str, int], n_rounds: int) -> dict[str, int]:
    """RFC 3713 section 2.3.3: the same procedure with kw1<->kw3, kw2<->kw4, ki<->k(n+1-i), ke swapped."""
    layers = 2 * (n_rounds // 6 - 1)
    swapped = {"kw1": subkeys["kw3"], "kw2": subkeys["kw4"], "kw3": subkeys["kw1"], "kw4": subkeys["kw2"]}
    for r in range(1, n_rounds + 1):
        swapped[f"k{r}"] = subkeys[f"k{n_rounds + 1 - r}"]
    for e in range(1, layers + 1):
        swapped[f"ke{e}"] = subkeys[f"ke{layers + 1 - e}"]
    return swapped


@lru_cache(maxsize=256)
def _plans(key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Subkeys flattened in use order, for encryption and for decryption (cached per key)."""
    n_rounds = rounds(len(key) * 8)
    order = _encryption_order(n_rounds)
    subkeys = _subkeys(key)
    decrypting = _decryption_subkeys(subkeys, n_rounds)
    return tuple(subkeys[n] for n in order), tuple(decrypting[n] for n in order)


# --- data randomizing part -------------------------------------------------------------------------------


def _run(plan: tuple[int, ...], block: int, trace: list[int] | None) -> int:
    """Prewhitening, rounds with FL/FLINV every six rounds, postwhitening (RFC 3713 section 2.3)."""
    n_rounds = 18 if len(plan) == 26 else 24
    d1 = (block >> 64) ^ plan[0]
    d2 = (block & MASK64) ^ plan[1]
    if trace is not None:
        trace.append((d1 << 64) | d2)
    index = 2
    for r in range(1, n_rounds + 1):
        # Odd rounds update D2 from D1, even rounds D1 from D2 (the RFC writes the Feistel without swaps).
        if r & 1:
            d2 ^= f_function(d1, plan[index])
        else:
            d1 ^= f_function(d2, plan[index])
        index += 1
        if trace is not None:
            trace.append((d1 << 64) | d2)
        if r % 6 == 0 and r != n_rounds:
            d1 = fl(d1, plan[index])
            d2 = fl_inv(d2, plan[index + 1])
            index += 2
            if trace is not None:
                trace.append((d1 << 64) | d2)
    d2 ^= plan[index]
    d1 ^= plan[index + 1]
    out = (d2 << 64) | d1
    if trace is not None:
        trace.append(out)
    return out


def encrypt_block(key: bytes, block: bytes) -> bytes:
    encrypt_plan, _ = _plans(_checked_key(key))
    return _run(encrypt_plan, _checked_block(block), None).to_bytes(16, "big")


def decrypt_block(key: bytes, block: bytes) -> bytes:
    _, decrypt_plan = _plans(_checked_key(key))
    return _run(decrypt_plan, _checked_block(block), None).to_bytes(16, "big")


def trace_labels(key_bits: int) -> list[str]:
    """Names of the encrypt_trace/decrypt_trace entries for a key size."""
    n_rounds = rounds(key_bits)
    labels = ["prewhitening"]
    for r in range(1, n_rounds + 1):
        labels.append(f"round {r}")
        if r % 6 == 0 and r != n_rounds:
            labels.append(f"FL/FLINV {r // 6}")
    return labels + ["output"]


def encrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """D1||D2 after prewhitening, after each round and each FL/FLINV layer; then C = D2||D1 postwhitened."""
    encrypt_plan, _ = _plans(_checked_key(key))
    states: list[int] = []
    _run(encrypt_plan, _checked_block(block), states)
    return [s.to_bytes(16, "big") for s in states]


def decrypt_trace(key: bytes, block: bytes) -> list[bytes]:
    """The same states for decryption (the encryption procedure with the swapped subkeys)."""
    _, decrypt_plan = _plans(_checked_key(key))
    states: list[int] = []
    _run(decrypt_plan, _checked_block(block), states)
    return [s.to_bytes(16, "big") for s in states]


class Camellia:
    """The Camellia reference as a ``CipherModel``."""

    name: str = "camellia"
    block_bits: int = 128
    key_sizes: tuple[int, ...] = KEY_SIZES

    def encrypt(self, key: bytes, block: bytes) -> bytes:
        return encrypt_block(key, block)

    def decrypt(self, key: bytes, block: bytes) -> bytes:
        return decrypt_block(key, block)
