// cipherbench generic testbench: drives any core with the common interface (docs/interface.md)
// from a file of operations and writes a file of events, at Verilator speed.
//
// Usage: tb OPS EVENTS [--timeout CYCLES] [--backpressure SEED] [--reset CYCLES]
//
// The build passes the port widths: -DTB_KEY_BITS, -DTB_BLOCK_BITS, -DTB_KEYLEN_BITS, and the
// Verilated model is built with --prefix Vtb_top so this file never names the design.
//
// Ops (one per line):
//   K <keylen_bytes> <keyhex> [drain] load a key (left-aligned in `key`). drain 1 (default): wait
//                                    for every block offered before it to come out. drain 0 (keys
//                                    that travel with the blocks): offered at once, and when it
//                                    follows a block, on the same edge as that block if the core
//                                    takes both (a key applies to blocks accepted on later edges)
//   B <dec> <hex>                    offer one block until accepted
//   C <dec> <count> <hex>            chained: each result is fed straight back, `count` blocks in all
//   I <cycles>                       offer nothing for that many cycles
// Events:
//   KA <op> <cycle>                  key accepted
//   BA <op> <cycle>                  block accepted
//   BO <op> <cycle> <hex>            result accepted (for a chain: only its final result)
//   SETUP <cycles>                   cycles from reset release until key_ready first went high
//   END <cycles>                     edges simulated after reset release
//   TIMEOUT <cycle> <text>           nothing completed for --timeout cycles (exit code 2)
//   ERROR <cycle> <text>             protocol violation by the core (exit code 3)
//
// Cycle n is the n-th rising edge after reset release, counting from 0. A transfer "at cycle n"
// happened on that edge; every input is set up while clk is low, before the edge.

#include <verilated.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtb_top.h"
#ifdef TB_TRACE
#include <verilated_vcd_c.h>
#endif

#if !defined(TB_KEY_BITS) || !defined(TB_BLOCK_BITS) || !defined(TB_KEYLEN_BITS)
#error "build with -DTB_KEY_BITS=.. -DTB_BLOCK_BITS=.. -DTB_KEYLEN_BITS=.."
#endif

// Verilator's legacy time hook; we never use $time, but some runtimes still link against it.
double sc_time_stamp() { return 0; }

namespace {

// A port value as 32-bit words, word 0 = least significant (Verilator's VlWide layout).
using Words = std::vector<uint32_t>;

size_t words_for(int bits) { return static_cast<size_t>((bits + 31) / 32); }

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "tb: %s\n", msg.c_str());
    std::exit(4);
}

// Clear the bits above `bits`: Verilator assumes inputs carry no garbage above the port width.
void mask_to(Words& w, int bits) {
    w.resize(words_for(bits), 0);
    if (bits % 32) w.back() &= (uint32_t{1} << (bits % 32)) - 1;
}

Words from_hex(const std::string& hex, int bits) {
    Words w(words_for(bits) + 1, 0);
    size_t nibble = 0;
    for (size_t i = hex.size(); i-- > 0; ++nibble) {
        const char c = hex[i];
        uint32_t v;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
        else die("bad hex digit in '" + hex + "'");
        if (nibble / 8 >= w.size()) {
            if (v) die("hex value '" + hex + "' wider than " + std::to_string(bits) + " bits");
            continue;
        }
        w[nibble / 8] |= v << (4 * (nibble % 8));
    }
    mask_to(w, bits);
    return w;
}

std::string to_hex(const Words& w, int bits) {
    static const char digits[] = "0123456789abcdef";
    const int n = (bits + 3) / 4;
    std::string s(static_cast<size_t>(n), '0');
    for (int nib = 0; nib < n; ++nib) {
        const uint32_t v = (w[static_cast<size_t>(nib / 8)] >> (4 * (nib % 8))) & 0xf;
        s[static_cast<size_t>(n - 1 - nib)] = digits[v];
    }
    return s;
}

// w << shift, truncated to `bits`.
Words shift_left(const Words& w, int shift, int bits) {
    Words r(words_for(bits), 0);
    const size_t ws = static_cast<size_t>(shift / 32);
    const int bs = shift % 32;
    for (size_t i = 0; i < w.size(); ++i) {
        const uint64_t v = static_cast<uint64_t>(w[i]) << bs;
        if (i + ws < r.size()) r[i + ws] |= static_cast<uint32_t>(v);
        if (bs && i + ws + 1 < r.size()) r[i + ws + 1] |= static_cast<uint32_t>(v >> 32);
    }
    mask_to(r, bits);
    return r;
}

// Port access for any width: CData/SData/IData/QData are integers, wider ports are VlWide<N>.
template <typename T>
void put(T& port, const Words& w) {
    if constexpr (std::is_integral_v<T>) {
        uint64_t v = w.empty() ? 0 : w[0];
        if (w.size() > 1) v |= static_cast<uint64_t>(w[1]) << 32;
        port = static_cast<T>(v);
    } else {
        for (size_t i = 0; i < port.size(); ++i) port[i] = i < w.size() ? w[i] : 0;
    }
}

template <typename T>
Words get(const T& port, int bits) {
    Words w(words_for(bits), 0);
    if constexpr (std::is_integral_v<T>) {
        const uint64_t v = static_cast<uint64_t>(port);
        w[0] = static_cast<uint32_t>(v);
        if (w.size() > 1) w[1] = static_cast<uint32_t>(v >> 32);
    } else {
        for (size_t i = 0; i < w.size() && i < port.size(); ++i) w[i] = port[i];
    }
    return w;
}

enum class Kind { Key, Block, Chain, Idle };

struct Op {
    Kind kind;
    long keylen = 0;  // bytes
    bool dec = false;
    long count = 0;   // chain length or idle cycles
    bool drain = true;  // key: wait for the blocks before it to come out
    Words value;      // key (already left-aligned) or block
};

std::vector<Op> read_ops(const char* path) {
    std::ifstream in(path);
    if (!in) die(std::string("cannot read ") + path);
    std::vector<Op> ops;
    std::string line;
    long lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        std::istringstream ls(line);
        std::string tag, hex;
        if (!(ls >> tag)) continue;
        Op op{};
        bool ok = true;
        if (tag == "K") {
            op.kind = Kind::Key;
            ok = static_cast<bool>(ls >> op.keylen >> hex);
            if (ok && (op.keylen <= 0 || op.keylen * 8 > TB_KEY_BITS)) die("bad key length on line " + std::to_string(lineno));
            if (ok) {
                const int bits = static_cast<int>(op.keylen * 8);
                op.value = shift_left(from_hex(hex, bits), TB_KEY_BITS - bits, TB_KEY_BITS);
                int drain = 1;
                if (ls >> drain) op.drain = drain != 0;
            }
        } else if (tag == "B" || tag == "C") {
            int dec = 0;
            op.kind = tag == "B" ? Kind::Block : Kind::Chain;
            ok = static_cast<bool>(ls >> dec);
            op.count = 1;
            if (ok && op.kind == Kind::Chain) ok = static_cast<bool>(ls >> op.count) && op.count >= 1;
            ok = ok && static_cast<bool>(ls >> hex);
            op.dec = dec != 0;
            if (ok) op.value = from_hex(hex, TB_BLOCK_BITS);
        } else if (tag == "I") {
            op.kind = Kind::Idle;
            ok = static_cast<bool>(ls >> op.count) && op.count >= 0;
        } else {
            ok = false;
        }
        if (!ok) die("cannot parse ops line " + std::to_string(lineno) + ": " + line);
        ops.push_back(std::move(op));
    }
    return ops;
}

// Seeded out_ready pattern for back-pressure tests (splitmix64: tiny and good enough).
struct Pattern {
    bool enabled = false;
    uint64_t state = 0;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    long run_left = 0;
    bool run_value = true;
    // Runs of 1..8 cycles of ready or stalled, half each: gives both short and long waits.
    bool ready() {
        if (!enabled) return true;
        if (run_left == 0) {
            const uint64_t r = next();
            run_value = r & 1;
            run_left = static_cast<long>((r >> 1) & 7) + 1;
        }
        --run_left;
        return run_value;
    }
};

// A block inside the core: which op it belongs to and whether its result is reported (a chain's
// intermediate results are fed back instead).
struct InFlight {
    size_t op;
    bool final;
};

const char* kind_tag(Kind k) {
    switch (k) {
        case Kind::Key: return "K";
        case Kind::Block: return "B";
        case Kind::Chain: return "C";
        default: return "I";
    }
}

class Driver {
public:
    Driver(Vtb_top* top, std::vector<Op> ops, FILE* ev, long timeout, Pattern pattern)
        : top_(top), ops_(std::move(ops)), ev_(ev), timeout_(timeout), pattern_(pattern) {}
#ifdef TB_TRACE
    void trace_to(VerilatedVcdC* trace) { trace_ = trace; }
#endif

    int run(long reset_cycles) {
        reset(reset_cycles);
        start_op(0);
        while (cur_ < ops_.size() || !inflight_.empty()) {
            step();
            if (cycle_ - last_progress_ > timeout_) {
                std::fprintf(ev_, "TIMEOUT %ld %s\n", cycle_, waiting_for().c_str());
                std::fprintf(ev_, "SETUP %ld\nEND %ld\n", setup_, cycle_);
                return 2;
            }
            if (!error_.empty()) {
                std::fprintf(ev_, "ERROR %ld %s\n", cycle_, error_.c_str());
                return 3;
            }
        }
        std::fprintf(ev_, "SETUP %ld\nEND %ld\n", setup_, cycle_);
        return 0;
    }

private:
    Vtb_top* top_;
    std::vector<Op> ops_;
    FILE* ev_;
    long timeout_;
    Pattern pattern_;

    long cycle_ = 0;           // index of the next rising edge
    long last_progress_ = 0;
    long ticks_ = 0;           // rising edges so far (the trace's time base)
    long setup_ = -1;
    size_t cur_ = 0;           // op being driven
    long idle_left_ = 0;
    long chain_accepted_ = 0;
    bool have_feedback_ = false;  // a chain result was taken but the core did not take it back yet
    Words feedback_;
    std::deque<InFlight> inflight_;
    std::string error_;
#ifdef TB_TRACE
    VerilatedVcdC* trace_ = nullptr;
#endif

    // Rising edge; clk goes low again with the next input change (one eval fewer per cycle).
    void edge() {
        ++ticks_;
        top_->clk = 1;
        eval();
        top_->clk = 0;
    }

    // Every evaluation, and with --vcd its values: time 2t at the t-th rising edge, 2t + 1
    // for the low phase after it (activity is counted per clock, not in seconds).
    void eval() {
        top_->eval();
#ifdef TB_TRACE
        if (trace_) trace_->dump(static_cast<uint64_t>(2 * ticks_ + (top_->clk ? 0 : 1)));
#endif
    }

    void quiet_inputs() {
        top_->key_valid = 0;
        top_->in_valid = 0;
        top_->in_decrypt = 0;
        top_->out_ready = 0;
    }

    void reset(long cycles) {
        top_->clk = 0;
        quiet_inputs();
        top_->rst = 1;
        eval();
        for (long i = 0; i < cycles; ++i) {
            edge();
            eval();
        }
        top_->rst = 0;
        eval();
    }

    void start_op(size_t i) {
        cur_ = i;
        // Zero-length idles are no-ops; skip them so they cost no cycle.
        while (cur_ < ops_.size() && ops_[cur_].kind == Kind::Idle && ops_[cur_].count == 0) ++cur_;
        if (cur_ >= ops_.size()) return;
        idle_left_ = ops_[cur_].count;
        chain_accepted_ = 0;
        have_feedback_ = false;
    }

    // The chain result on out_block may be fed back this cycle: the current op is a chain that
    // still needs blocks, and the result being taken is its own intermediate one.
    bool feedback_now() const {
        if (cur_ >= ops_.size() || ops_[cur_].kind != Kind::Chain) return false;
        if (chain_accepted_ == 0 || have_feedback_) return false;
        return top_->out_valid && top_->out_ready && !inflight_.empty() &&
               inflight_.front().op == cur_ && !inflight_.front().final;
    }

    void offer_key(const Op& op) {
        top_->key_valid = 1;
        put(top_->key, op.value);
        put(top_->key_len, Words{static_cast<uint32_t>(op.keylen)});
    }

    // A key that does not drain, right after the block being offered: offered on the same edge
    // if the core takes the block and the key together (never the key alone, which would change
    // the block's key); otherwise it is offered as its own op once the block is in.
    bool key_with_block(const Op* op) {
        if (!op || op->kind != Kind::Block || cur_ + 1 >= ops_.size()) return false;
        const Op& next = ops_[cur_ + 1];
        if (next.kind != Kind::Key || next.drain || !top_->in_ready) return false;
        offer_key(next);
        eval();
        if (top_->in_ready && top_->key_ready) return true;
        top_->key_valid = 0;
        eval();
        return false;
    }

    void step() {
        const Op* op = cur_ < ops_.size() ? &ops_[cur_] : nullptr;
        quiet_inputs();
        top_->out_ready = pattern_.ready() ? 1 : 0;
        if (op && op->kind == Kind::Key && (inflight_.empty() || !op->drain)) {
            // Draining key ops wait for every block offered so far to come out (cores whose
            // keys do not travel with the blocks refuse a key while any is in flight).
            offer_key(*op);
        } else if (op && op->kind == Kind::Block) {
            top_->in_valid = 1;
            top_->in_decrypt = op->dec;
            put(top_->in_block, op->value);
        } else if (op && op->kind == Kind::Chain) {
            top_->in_decrypt = op->dec;
            if (chain_accepted_ == 0 || have_feedback_) {
                top_->in_valid = 1;
                put(top_->in_block, chain_accepted_ == 0 ? op->value : feedback_);
            }
        }
        eval();
        const bool key_ahead = key_with_block(op);
        const bool feeding = feedback_now();
        if (feeding) {
            // Zero-delay feedback: the result offered now is the next input on the same edge.
            top_->in_valid = 1;
            put(top_->in_block, get(top_->out_block, TB_BLOCK_BITS));
            eval();
        }

        const bool key_fire = top_->key_valid && top_->key_ready;
        const bool in_fire = top_->in_valid && top_->in_ready;
        const bool out_fire = top_->out_valid && top_->out_ready;
        if (setup_ < 0 && top_->key_ready) setup_ = cycle_;
        Words out;
        if (out_fire) out = get(top_->out_block, TB_BLOCK_BITS);

        edge();
        const long c = cycle_++;

        if (out_fire) {
            last_progress_ = c;
            if (inflight_.empty()) {
                error_ = "out_valid with no block in flight (result " + to_hex(out, TB_BLOCK_BITS) + ")";
                return;
            }
            const InFlight f = inflight_.front();
            inflight_.pop_front();
            if (f.final) {
                std::fprintf(ev_, "BO %zu %ld %s\n", f.op, c, to_hex(out, TB_BLOCK_BITS).c_str());
            } else if (feeding && !in_fire) {
                have_feedback_ = true;  // keep offering it until the core takes it
                feedback_ = out;
            }
        }
        if (!op) return;
        if (key_fire && !key_ahead) {
            last_progress_ = c;
            std::fprintf(ev_, "KA %zu %ld\n", cur_, c);
            start_op(cur_ + 1);
        } else if (in_fire) {
            last_progress_ = c;
            std::fprintf(ev_, "BA %zu %ld\n", cur_, c);
            if (op->kind == Kind::Block) {
                inflight_.push_back({cur_, true});
                if (key_ahead) {
                    std::fprintf(ev_, "KA %zu %ld\n", cur_ + 1, c);
                    start_op(cur_ + 2);
                } else {
                    start_op(cur_ + 1);
                }
            } else {
                ++chain_accepted_;
                have_feedback_ = false;
                const bool last = chain_accepted_ == op->count;
                inflight_.push_back({cur_, last});
                if (last) start_op(cur_ + 1);
            }
        } else if (op->kind == Kind::Idle) {
            last_progress_ = c;  // idling is what was asked for, not a hang
            if (--idle_left_ <= 0) start_op(cur_ + 1);
        }
    }

    std::string waiting_for() const {
        char buf[200];
        if (cur_ >= ops_.size() ||
            (ops_[cur_].kind == Kind::Key && ops_[cur_].drain && !inflight_.empty()) ||
            (ops_[cur_].kind == Kind::Chain && chain_accepted_ > 0 && !have_feedback_)) {
            const InFlight& f = inflight_.front();
            std::snprintf(buf, sizeof buf, "op %zu (%s): out_valid never came for its block",
                          f.op, kind_tag(ops_[f.op].kind));
        } else if (ops_[cur_].kind == Kind::Key) {
            std::snprintf(buf, sizeof buf, "op %zu (K): key_ready stayed low", cur_);
        } else {
            std::snprintf(buf, sizeof buf, "op %zu (%s): in_ready stayed low for a%s block", cur_,
                          kind_tag(ops_[cur_].kind), ops_[cur_].dec ? " decrypt" : "n encrypt");
        }
        return buf;
    }
};

long parse_long(const char* s, const char* what) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (!end || *end || v < 0) die(std::string("bad ") + what + ": " + s);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) die("usage: tb OPS EVENTS [--timeout N] [--backpressure SEED] [--reset N] [--vcd FILE]");
    long timeout = 100000, reset_cycles = 4;
    std::string vcd;
    Pattern pattern;
    for (int i = 3; i < argc; i += 2) {
        if (i + 1 >= argc) die(std::string("missing value for ") + argv[i]);
        const std::string opt = argv[i];
        if (opt == "--timeout") timeout = parse_long(argv[i + 1], "timeout");
        else if (opt == "--reset") reset_cycles = parse_long(argv[i + 1], "reset cycles");
        else if (opt == "--vcd") vcd = argv[i + 1];
        else if (opt == "--backpressure") {
            pattern.enabled = true;
            pattern.state = static_cast<uint64_t>(parse_long(argv[i + 1], "seed"));
        } else die("unknown option " + opt);
    }
    std::vector<Op> ops = read_ops(argv[1]);
    FILE* ev = std::fopen(argv[2], "w");
    if (!ev) die(std::string("cannot write ") + argv[2]);
    static char buffer[1 << 16];
    std::setvbuf(ev, buffer, _IOFBF, sizeof buffer);

    auto context = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_top>(context.get());
    Driver driver(top.get(), std::move(ops), ev, timeout, pattern);
#ifdef TB_TRACE
    // The design's own signals only (depth 2: the wrapper, then the design's top), not the
    // insides of every cell.
    std::unique_ptr<VerilatedVcdC> trace;
    if (!vcd.empty()) {
        context->traceEverOn(true);
        trace = std::make_unique<VerilatedVcdC>();
        top->trace(trace.get(), 2);
        trace->open(vcd.c_str());
        driver.trace_to(trace.get());
    }
#else
    if (!vcd.empty()) die("--vcd needs a build with tracing (Simulator(trace=True))");
#endif
    const int rc = driver.run(reset_cycles);
#ifdef TB_TRACE
    if (trace) trace->close();
#endif
    top->final();
    std::fclose(ev);
    return rc;
}
