"""The AESAVS ECB Monte Carlo test (NIST, *The Advanced Encryption Standard Algorithm Validation
Suite*, section 6.4): 100 outer iterations of 1000 chained operations, the procedure of
verify/mct.py. The record of iteration i (the ``COUNT=i`` of ``ECBMCT*.rsp``) is ``key[i]``,
``in[i][0]``, ``out[i][999]``.

The official ``ECBMCT*.rsp`` files are not shipped with the project; :data:`AESAVS_ECB_MCT` holds the
published seeds (``COUNT=0``) and end values (``COUNT=99``) of the six files, typed in as facts.
Each run is compared iteration by iteration with a reference chain (the reference model unless
told otherwise) and, when all 100 iterations ran, with the published ``COUNT=99`` value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...errors import CipherbenchError
from ...verify.mct import Chain, Checkpoint, MctOutcome, compare_checkpoints, model_chain, run_mct

AESAVS_OUTER = 100
AESAVS_INNER = 1000


@dataclass(frozen=True)
class AesavsSeed:
    """An ``ECBMCT*.rsp`` section: the ``COUNT=0`` key and input, the ``COUNT=99`` output."""

    key_bits: int
    decrypt: bool
    key: bytes
    data: bytes
    final: bytes


def _seed(key_bits: int, decrypt: bool, key: str, data: str, final: str) -> AesavsSeed:
    return AesavsSeed(key_bits, decrypt, bytes.fromhex(key), bytes.fromhex(data), bytes.fromhex(final))


# NIST CAVP AESAVS ECBMCT128/192/256.rsp: for [ENCRYPT] COUNT=0 KEY and PLAINTEXT with COUNT=99
# CIPHERTEXT; for [DECRYPT] COUNT=0 KEY and CIPHERTEXT with COUNT=99 PLAINTEXT. Values quoted from
# the published files in public test programs (the 128-bit ones in two independent sources).
AESAVS_ECB_MCT: tuple[AesavsSeed, ...] = (
    _seed(128, False, "139a35422f1d61de3c91787fe0507afd", "b9145a768b7dc489a096b546f43b231f",
          "fb2649694783b551eacd9d5db6126d47"),
    _seed(128, True, "0c60e7bf20ada9baa9e1ddf0d1540726", "b08a29b11a500ea3aca42c36675b9785",
          "d1d2bfdc58ffcad2341b095bce55221e"),
    _seed(192, False, "b9a63e09e1dfc42e93a90d9bad739e5967aef672eedd5da9",
          "85a1f7a58167b389cddc8a9ff175ee26", "5d1196da8f184975e240949a25104554"),
    _seed(192, True, "4b97585701c03fbebdfa8555024f589f1482c58a00fdd9fd",
          "d0bd0e02ded155e4516be83f42d347a4", "b63ef1b79507a62eba3dafcec54a6328"),
    _seed(256, False, "f9e8389f5b80712e3886cc1fa2d28a3b8c9cd88a2d4a54c6aa86ce0fef944be0",
          "b379777f9050e2a818f2940cbbd9aba4", "c5d2cb3d5b7ff0e23e308967ee074825"),
    _seed(256, True, "2b09ba39b834062b9e93f48373b8dd018dedf1e5ba1b8af831ebbacbc92a2643",
          "89649bd0115f30bd878567610223a59d", "e3d3868f578caf34e36445bf14cefc68"),
)
# ECBMCT128.rsp [ENCRYPT] COUNT=0 CIPHERTEXT and COUNT=1 KEY (published; checks the first step).
AESAVS_ECB_MCT128_ENCRYPT_COUNT0_RESULT = bytes.fromhex("d7c3ffac9031238650901e157364c386")
AESAVS_ECB_MCT128_ENCRYPT_COUNT1_KEY = bytes.fromhex("c459caeebf2c42586c01666a9334b97b")


def aesavs_seed(key_bits: int, decrypt: bool) -> AesavsSeed:
    for seed in AESAVS_ECB_MCT:
        if seed.key_bits == key_bits and seed.decrypt == decrypt:
            return seed
    raise CipherbenchError(f"no AESAVS ECB MCT seed for {key_bits}-bit keys; valid: 128, 192, 256")


def aesavs_mct(chain: Chain, key_bits: int, decrypt: bool, outer: int = AESAVS_OUTER,
               inner: int = AESAVS_INNER) -> list[Checkpoint]:
    """The AESAVS ECB MCT from the published seed of ``key_bits``/direction."""
    seed = aesavs_seed(key_bits, decrypt)
    return list(run_mct(chain, seed.key, seed.data, decrypt, outer, inner))


def cryptography_chain() -> Chain:
    """Chained operations of PyPI ``cryptography``'s AES (OpenSSL): an implementation independent
    of the project's model."""
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise CipherbenchError("the cryptography package is not installed "
                               "(pip install cryptography)") from exc

    def chain(key: bytes, data: bytes, decrypt: bool, count: int) -> tuple[bytes, bytes]:
        cipher = Cipher(algorithms.AES(key), modes.ECB())
        ctx = cipher.decryptor() if decrypt else cipher.encryptor()
        before, out = data, data
        for _ in range(count):
            before, out = out, ctx.update(out)
        return before, out
    return chain


def aesavs_test(chain: Chain, key_sizes: Iterable[int], directions: Iterable[bool],
                outer: int | None = None, reference: Chain | None = None
                ) -> Iterator[MctOutcome]:
    """AES's CipherInfo.monte_carlo: the AESAVS ECB MCT per key size and direction, ``outer``
    iterations (default 100), compared with ``reference`` (default: the reference model) and,
    when all 100 ran, with the published ``COUNT=99`` value."""
    from .model import AES

    reference = reference or model_chain(AES())
    count = AESAVS_OUTER if outer is None else outer
    dirs = list(directions)
    for bits in sorted(set(key_sizes)):
        for decrypt in dirs:
            name = (f"AESAVS ECB MCT {bits} {'decrypt' if decrypt else 'encrypt'} "
                    f"({count} x {AESAVS_INNER})")
            got = aesavs_mct(chain, bits, decrypt, count)
            outcome = compare_checkpoints(name, got, aesavs_mct(reference, bits, decrypt, count))
            final = aesavs_seed(bits, decrypt).final
            if count == AESAVS_OUTER and outcome.ok:
                if got[-1].result == final:
                    outcome.passed += 1
                else:
                    outcome.fail(f"COUNT=99: published {final.hex()}, got {got[-1].result.hex()}")
            yield outcome
