"""The native back end of leakage/simulate.py: C generated from the netlist, compiled once.

Every net is a 512-bit vector (GCC's vector extension: 8 words of 64 traces), so one statement
per gate evaluates 512 traces, and the compiler emits AVX-512, AVX2 or SSE as the machine has.
A block of 512 traces runs all its clocks before the next block, so a netlist's values stay in
the CPU's caches (a 7,000-net core: 448 KB).

The generated part is only the gates, in evaluation order, and the register table; the rest
(inputs, power counting, recording) is the fixed kernel below, driven by index arrays from
Python. The power sample is counted bit-sliced: the toggles of 16 nets are compressed by a
carry-save tree (Harley and Seal's popcount) into one counter per bit position, 512 traces at a
time, then transposed into one integer per trace.

The library is compiled with the system C++ compiler (``$CXX`` or ``g++``, as
software/cppbuild.py) with ``-O2 -march=native`` and cached in ``$CIPHERBENCH_CACHE/leakage``
under a digest of its source, the compiler and the CPU, then loaded with ctypes. ctypes releases
the GIL during the call, so ``threads`` > 1 runs blocks of traces in parallel threads.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from ..cache import cache_root
from ..errors import CipherbenchError, ToolFailed, ToolMissing
from .netlist import CONST1, Netlist
from .stimulus import Stimulus, clock_events, words_for

WORDS_PER_BLOCK = 8  # 512 traces per vector
STATEMENTS_PER_FUNCTION = 2000  # keeps each function small enough for the compiler's passes
BUILD_TIMEOUT_S = 1800

C_GATES = {
    "$_BUF_": "{0}", "$_NOT_": "~{0}",
    "$_AND_": "{0} & {1}", "$_NAND_": "~({0} & {1})", "$_OR_": "{0} | {1}",
    "$_NOR_": "~({0} | {1})", "$_XOR_": "{0} ^ {1}", "$_XNOR_": "~({0} ^ {1})",
    "$_ANDNOT_": "{0} & ~{1}", "$_ORNOT_": "{0} | ~{1}",
    "$_MUX_": "{0} ^ (({0} ^ {1}) & {2})", "$_NMUX_": "~({0} ^ (({0} ^ {1}) & {2}))",
    "$_AOI3_": "~(({0} & {1}) | {2})", "$_OAI3_": "~(({0} | {1}) & {2})",
    "$_AOI4_": "~(({0} & {1}) | ({2} & {3}))", "$_OAI4_": "~(({0} | {1}) & ({2} | {3}))",
}

KERNEL = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define W WORDS_PER_BLOCK
typedef uint64_t vec __attribute__((vector_size(8 * W)));

static inline void csa(vec *high, vec *low, vec a, vec b, vec c) {
    vec u = a ^ b;
    *high = (a & b) | (u & c);
    *low = u ^ c;
}

/* counter += x << shift, bit-sliced over kbits planes */
static inline void add_at(vec *counter, vec x, int shift, int kbits) {
    for (int i = shift; i < kbits; i++) {
        vec carry = counter[i] & x;
        counter[i] ^= x;
        x = carry;
    }
}

static inline vec toggle(vec *V, vec *P, const int32_t *nets, int i) {
    vec now = V[nets[i]];
    vec t = now ^ P[i];
    P[i] = now;
    return t;
}

/* Adds the toggles of nets[0..n) (previous values P) into counter at weight 2^shift. */
static void count_toggles(vec *V, vec *P, const int32_t *nets, int n, int shift, vec *counter,
                          int kbits) {
    vec ones = {0}, twos = {0}, fours = {0}, eights = {0};
    vec twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        const int32_t *q = nets + i;
        vec *p = P + i;
        csa(&twos_a, &ones, ones, toggle(V, p, q, 0), toggle(V, p, q, 1));
        csa(&twos_b, &ones, ones, toggle(V, p, q, 2), toggle(V, p, q, 3));
        csa(&fours_a, &twos, twos, twos_a, twos_b);
        csa(&twos_a, &ones, ones, toggle(V, p, q, 4), toggle(V, p, q, 5));
        csa(&twos_b, &ones, ones, toggle(V, p, q, 6), toggle(V, p, q, 7));
        csa(&fours_b, &twos, twos, twos_a, twos_b);
        csa(&eights_a, &fours, fours, fours_a, fours_b);
        csa(&twos_a, &ones, ones, toggle(V, p, q, 8), toggle(V, p, q, 9));
        csa(&twos_b, &ones, ones, toggle(V, p, q, 10), toggle(V, p, q, 11));
        csa(&fours_a, &twos, twos, twos_a, twos_b);
        csa(&twos_a, &ones, ones, toggle(V, p, q, 12), toggle(V, p, q, 13));
        csa(&twos_b, &ones, ones, toggle(V, p, q, 14), toggle(V, p, q, 15));
        csa(&fours_b, &twos, twos, twos_a, twos_b);
        csa(&eights_b, &fours, fours, fours_a, fours_b);
        csa(&sixteens, &eights, eights, eights_a, eights_b);
        add_at(counter, sixteens, shift + 4, kbits);
    }
    for (; i < n; i++) add_at(counter, toggle(V, P, nets, i), shift, kbits);
    add_at(counter, ones, shift, kbits);
    add_at(counter, twos, shift + 1, kbits);
    add_at(counter, fours, shift + 2, kbits);
    add_at(counter, eights, shift + 3, kbits);
}

GENERATED

/* Simulates blocks [block_first, block_last) of 512 traces for all clocks. Arrays:
   pool: input planes, event e of clock c (ev_start[c] <= e < ev_start[c+1]) sets net ev_net[e]
     to pool[ev_offset[e] + block*W ...];
   power groups g: nets pw_nets[pw_start[g] .. pw_start[g+1]) counted at weight 2^pw_shift[g];
     power_out[trace * clocks + c] (may be NULL when there are no power nets);
   rec_slot[c]: -1, or where clock c's recorded nets go:
     rec_out[((slot * n_rec + j) * words_total) + block*W ...] = net rec_nets[j]. */
extern "C" int simulate(int64_t block_first, int64_t block_last, int64_t words_total, int32_t clocks,
             const uint64_t *pool, const int64_t *ev_start, const int32_t *ev_net,
             const int64_t *ev_offset,
             int32_t n_groups, const int32_t *pw_start, const int32_t *pw_nets,
             const int32_t *pw_shift, int32_t kbits, int32_t *power_out,
             const int32_t *rec_slot, int32_t n_rec, const int32_t *rec_nets, uint64_t *rec_out) {
    int32_t n_power = n_groups ? pw_start[n_groups] : 0;
    vec *V = (vec *)aligned_alloc(64, sizeof(vec) * NETS);
    vec *P = (vec *)aligned_alloc(64, sizeof(vec) * (n_power + 1));
    vec *N = (vec *)aligned_alloc(64, sizeof(vec) * (REGISTERS + 1));
    vec counter[32];
    if (!V || !P || !N) { free(V); free(P); free(N); return 1; }
    for (int64_t block = block_first; block < block_last; block++) {
        memset(V, 0, sizeof(vec) * NETS);
        memset(P, 0, sizeof(vec) * (n_power + 1));
        memset(&V[CONST1_NET], 0xff, sizeof(vec));
        for (int r = 0; r < REGISTERS; r++) if (REG_INIT[r]) memset(&V[REG_STATE[r]], 0xff, sizeof(vec));
        for (int32_t c = 0; c < clocks; c++) {
            for (int64_t e = ev_start[c]; e < ev_start[c + 1]; e++)
                memcpy(&V[ev_net[e]], pool + ev_offset[e] + block * W, sizeof(vec));
            evaluate(V);
            if (n_power) {
                memset(counter, 0, sizeof(counter));
                for (int32_t g = 0; g < n_groups; g++)
                    count_toggles(V, P + pw_start[g], pw_nets + pw_start[g],
                                  pw_start[g + 1] - pw_start[g], pw_shift[g], counter, kbits);
                uint64_t planes[32][W];
                memcpy(planes, counter, sizeof(vec) * kbits);
                for (int k = 0; k < W; k++) {
                    for (int j = 0; j < 64; j++) {
                        uint32_t s = 0;
                        for (int b = 0; b < kbits; b++) s |= (uint32_t)((planes[b][k] >> j) & 1) << b;
                        power_out[((block * W + k) * 64 + j) * (int64_t)clocks + c] = (int32_t)s;
                    }
                }
            }
            if (rec_slot[c] >= 0) {
                for (int32_t j = 0; j < n_rec; j++)
                    memcpy(rec_out + ((int64_t)rec_slot[c] * n_rec + j) * words_total + block * W,
                           &V[rec_nets[j]], sizeof(vec));
            }
            for (int r = 0; r < REGISTERS; r++) N[r] = V[REG_NEXT[r]];
            for (int r = 0; r < REGISTERS; r++) V[REG_STATE[r]] = N[r];
        }
    }
    free(V); free(P); free(N);
    return 0;
}
"""


def generate_source(netlist: Netlist) -> str:
    """The C++ source of the netlist's simulation library."""
    lines = [f"#define NETS {netlist.net_count}", f"#define CONST1_NET {CONST1}",
             f"#define REGISTERS {len(netlist.registers)}"]
    regs = netlist.registers or []
    lines.append(_int_array("REG_STATE", [r.state for r in regs]))
    lines.append(_int_array("REG_NEXT", [r.next for r in regs]))
    lines.append(_int_array("REG_INIT", [r.init for r in regs]))
    functions = []
    gates = netlist.gates
    for start in range(0, max(len(gates), 1), STATEMENTS_PER_FUNCTION):
        name = f"evaluate_{len(functions)}"
        body = [f"    V[{g.output}] = " + C_GATES[g.kind].format(*(f"V[{i}]" for i in g.inputs)) + ";"
                for g in gates[start:start + STATEMENTS_PER_FUNCTION]]
        lines += [f"static void {name}(vec *__restrict__ V) {{", *body, "}"]
        functions.append(name)
    lines += ["static void evaluate(vec *__restrict__ V) {",
              *(f"    {name}(V);" for name in functions), "}"]
    kernel = KERNEL.replace("WORDS_PER_BLOCK", str(WORDS_PER_BLOCK))
    return kernel.replace("GENERATED", "\n".join(lines))


def _int_array(name: str, values: list[int]) -> str:
    # One element at least: C has no empty arrays.
    return f"static const int32_t {name}[] = {{{', '.join(map(str, values or [0]))}}};"


def compiler_or_none() -> str | None:
    """The C++ compiler's path ($CXX, else g++), or None."""
    return shutil.which(os.environ.get("CXX") or "g++")


@dataclass
class NativeLibrary:
    path: Path
    function: ctypes._CFuncPtr  # type: ignore[name-defined]


_LOADED: dict[Path, NativeLibrary] = {}
_LOCK = threading.Lock()


def compile_netlist(netlist: Netlist) -> NativeLibrary:
    """The netlist's compiled library, built now unless a build of the same source is cached."""
    compiler = compiler_or_none()
    if compiler is None:
        raise ToolMissing(f"{os.environ.get('CXX') or 'g++'} not found: apt-get install g++ "
                          f"(or use backend='numpy')")
    source = generate_source(netlist)
    flags = ["-O2", "-march=native", "-shared", "-fPIC", "-x", "c++"]
    digest = hashlib.sha256("\0".join([source, compiler, *flags, _compiler_version(compiler),
                                       _cpu_id()]).encode()).hexdigest()[:20]
    target = cache_root() / "leakage" / f"sim-{digest}.so"
    with _LOCK:
        if target in _LOADED:
            return _LOADED[target]
        if not target.is_file():
            _build(compiler, flags, source, target)
        library = _load(target)
        _LOADED[target] = library
        return library


def _build(compiler: str, flags: list[str], source: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    # nice: the machine may be shared, and a build must not slow someone's measurement.
    prefix = ["nice", "-n", "10"] if shutil.which("nice") else []
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        src = Path(scratch) / "sim.cpp"
        src.write_text(source)
        output = Path(scratch) / target.name
        try:
            result = subprocess.run([*prefix, compiler, *flags, str(src), "-o", str(output)],
                                    capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise ToolFailed(f"compiling the leakage simulator timed out after "
                             f"{BUILD_TIMEOUT_S} s") from exc
        if result.returncode != 0:
            first = next((ln for ln in result.stderr.splitlines() if "error" in ln), "")
            raise ToolFailed(f"compiling the leakage simulator failed: {first.strip()}")
        os.replace(output, target)


def _load(path: Path) -> NativeLibrary:
    lib = ctypes.CDLL(str(path))
    function = lib.simulate
    i32p, i64p = np.ctypeslib.ndpointer(np.int32), np.ctypeslib.ndpointer(np.int64)
    u64p = np.ctypeslib.ndpointer(np.uint64)
    voidp = ctypes.c_void_p
    function.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int32,
                         u64p, i64p, i32p, i64p,
                         ctypes.c_int32, i32p, i32p, i32p, ctypes.c_int32, voidp,
                         i32p, ctypes.c_int32, i32p, voidp]
    function.restype = ctypes.c_int
    return NativeLibrary(path, function)


def _compiler_version(compiler: str) -> str:
    try:
        return subprocess.run([compiler, "--version"], capture_output=True, text=True,
                              timeout=60).stdout.splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def _cpu_id() -> str:
    """What -march=native depends on: the CPU's model and flags (a library built for one CPU
    may not run on another that shares the cache)."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.machine() + platform.processor()
    keep = [ln for ln in info.splitlines() if ln.startswith(("model name", "flags"))][:2]
    return platform.machine() + "\n".join(keep)


class PowerSampling(Protocol):
    """What a native run needs of the simulator (simulate.py's TraceSimulator): the netlist, the
    nets whose switching makes the power sample, their weights, and the weights' bit groups."""

    netlist: Netlist
    power_nets: list[int]
    weights: list[int]
    groups: list[tuple[int, list[int]]]


def run_native(sim: PowerSampling, library: NativeLibrary, count: int, clocks: int,
               stimulus: Stimulus, record_nets: tuple[int, ...], record_clocks: tuple[int, ...],
               threads: int) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The native run behind TraceSimulator.run."""
    netlist = sim.netlist
    words = words_for(count, WORDS_PER_BLOCK)
    pool_parts: list[np.ndarray] = []
    ev_start, ev_net, ev_offset = [0], [], []
    offset = 0
    for clock in range(clocks):
        for event in clock_events(netlist, stimulus, clock, count, words):
            pool_parts.append(event.planes.reshape(-1))
            ev_net += event.nets.tolist()
            ev_offset += [offset + words * b for b in range(len(event.nets))]
            offset += event.planes.size
        ev_start.append(len(ev_net))
    pool = np.concatenate(pool_parts) if pool_parts else np.zeros(1, dtype=np.uint64)
    pw_start, pw_nets, pw_shift = [0], [], []
    for bit, members in sim.groups:
        pw_nets += [sim.power_nets[i] for i in members]
        pw_shift.append(bit)
        pw_start.append(len(pw_nets))
    total = sum(sim.weights)
    kbits = max(1, total.bit_length())
    if kbits > 32:
        raise CipherbenchError("the power sample's weights add up to more than 32 bits")
    padded = words * 64
    power = np.zeros((padded, clocks), dtype=np.int32) if pw_nets else None
    recorded = (np.zeros((len(record_clocks), len(record_nets), words), dtype=np.uint64)
                if record_clocks and record_nets else None)
    slots = np.full(clocks, -1, dtype=np.int32)
    for slot, clock in enumerate(record_clocks):
        slots[clock] = slot if recorded is not None else -1
    arrays = {
        "pool": np.ascontiguousarray(pool, dtype=np.uint64),
        "ev_start": np.array(ev_start, dtype=np.int64),
        "ev_net": np.array(ev_net or [0], dtype=np.int32),
        "ev_offset": np.array(ev_offset or [0], dtype=np.int64),
        "pw_start": np.array(pw_start, dtype=np.int32),
        "pw_nets": np.array(pw_nets or [0], dtype=np.int32),
        "pw_shift": np.array(pw_shift or [0], dtype=np.int32),
        "rec_nets": np.array(record_nets or (0,), dtype=np.int32),
    }

    def run_blocks(first: int, last: int) -> int:
        return library.function(
            first, last, words, clocks, arrays["pool"], arrays["ev_start"], arrays["ev_net"],
            arrays["ev_offset"], len(pw_shift), arrays["pw_start"], arrays["pw_nets"],
            arrays["pw_shift"], kbits, None if power is None else power.ctypes.data, slots,
            len(record_nets), arrays["rec_nets"],
            None if recorded is None else recorded.ctypes.data)

    blocks = words // WORDS_PER_BLOCK
    parts = max(1, min(threads, blocks))
    bounds = [blocks * i // parts for i in range(parts + 1)]
    if parts == 1:
        codes = [run_blocks(0, blocks)]
    else:
        with ThreadPoolExecutor(parts) as pool_threads:
            codes = list(pool_threads.map(run_blocks, bounds[:-1], bounds[1:]))
    if any(codes):
        raise CipherbenchError("the native leakage simulator ran out of memory")
    return (None if power is None else power[:count]), recorded
