// cipherbench message-level testbench: drives a design with the NIST LWC hardware API's ports
// (message/ports.py: pdi, sdi, do with do_last) from a word list and checks every do word.
//
// Usage: tb_lwc WORDS EVENTS [--timeout CYCLES] [--stall SEED] [--reset CYCLES] [--isolate 1]
//               [--vcd FILE]
//
// The build passes the port widths: -DTB_W (pdi, do) and -DTB_SW (sdi); the Verilated model is
// built with --prefix Vtb_top so this file never names the design.
//
// WORDS (written by verify/message_sim.py from the streams of message/lwc.py; one item a line,
// blank lines and lines starting with # ignored):
//   P <hex>                       a pdi word
//   S <hex>                       an sdi word
//   D <hex> <last>                an expected do word and do_last (0/1); X digits: don't care
//   M <id> <pdi> <first> <count> <start>  a message: the pdi index of its instruction
//                                 (ENC/DEC/HASH), its expected do words first .. first+count-1
//                                 (the last: status), the pdi index of its first word (ACTKEY
//                                 when it loads a key)
// EVENTS:
//   GOT <index> <cycle> <hex> <last>  every do word taken
//   MSG <id> <inst_cycle> <status_cycle> <ok>  per message: the cycle its instruction was taken,
//                                 the cycle its status word was taken, 1 if all its words matched
//   END <cycles>                  edges simulated after reset release
//   TIMEOUT <cycle> <text>        nothing transferred for --timeout cycles (exit code 2)
//   ERROR <cycle> <text>          do_valid with no word left to expect (exit code 3)
//
// --isolate 1: a message's first pdi word is offered only once every do word before the message's
// has been taken (each message alone in the design: the LWC benchmarking's cycles per message).
// --vcd FILE (a build with -DTB_TRACE): the design's top-level signals, value changes at time 2t
// for the t-th rising edge and 2t + 1 after the falling one (for power from activity).
// --stall SEED: each cycle, pdi_valid and sdi_valid are each dropped, and do_ready too, with
// probability 1/4, from a splitmix64 sequence of that seed. Cycle n is the n-th rising edge after
// reset release, from 0; inputs are set while clk is low, before the edge.

#include <verilated.h>
#ifdef TB_TRACE
#include <verilated_vcd_c.h>
#endif

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtb_top.h"

#if !defined(TB_W) || !defined(TB_SW)
#error "build with -DTB_W=.. -DTB_SW=.."
#endif

double sc_time_stamp() { return 0; }

namespace {

using Words = std::vector<uint32_t>;  // word 0 = least significant (Verilator's VlWide layout)

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "tb_lwc: %s\n", msg.c_str());
    std::exit(4);
}

size_t words_for(int bits) { return static_cast<size_t>((bits + 31) / 32); }

Words from_hex(const std::string& hex, int bits) {
    if (hex.size() != static_cast<size_t>(bits / 4)) die("word '" + hex + "' is not " + std::to_string(bits) + " bits");
    Words w(words_for(bits), 0);
    for (size_t i = 0; i < hex.size(); ++i) {
        const size_t nib = hex.size() - 1 - i;
        const char c = static_cast<char>(std::tolower(hex[i]));
        uint32_t v;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else die("bad hex digit in '" + hex + "'");
        w[nib / 8] |= v << (4 * (nib % 8));
    }
    return w;
}

std::string to_hex(const Words& w, int bits) {
    static const char digits[] = "0123456789ABCDEF";
    std::string s(static_cast<size_t>(bits / 4), '0');
    for (int nib = 0; nib < bits / 4; ++nib)
        s[s.size() - 1 - nib] = digits[(w[static_cast<size_t>(nib / 8)] >> (4 * (nib % 8))) & 0xf];
    return s;
}

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

// Expected and got agree: every digit equal, except X (don't care) in the expected one.
bool matches(const std::string& expected, const std::string& got) {
    if (expected.size() != got.size()) return false;
    for (size_t i = 0; i < got.size(); ++i) {
        const char e = static_cast<char>(std::toupper(expected[i]));
        if (e != 'X' && e != got[i]) return false;
    }
    return true;
}

struct Expected { std::string hex; int last; };
struct Message { long id, pdi, first, count, start; long inst = -1, status = -1; bool ok = true; };

struct Lists {
    std::vector<Words> pdi, sdi;
    std::vector<Expected> dout;
    std::vector<Message> msgs;
};

Lists read_words(const char* path) {
    std::ifstream in(path);
    if (!in) die(std::string("cannot read ") + path);
    Lists l;
    std::string line;
    long lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        std::istringstream ls(line);
        std::string tag, hex;
        if (!(ls >> tag) || tag[0] == '#') continue;
        bool ok = true;
        if (tag == "P" && (ls >> hex)) l.pdi.push_back(from_hex(hex, TB_W));
        else if (tag == "S" && (ls >> hex)) l.sdi.push_back(from_hex(hex, TB_SW));
        else if (tag == "D") {
            Expected e;
            ok = static_cast<bool>(ls >> e.hex >> e.last) && e.hex.size() == TB_W / 4;
            if (ok) l.dout.push_back(e);
        } else if (tag == "M") {
            Message m{};
            ok = static_cast<bool>(ls >> m.id >> m.pdi >> m.first >> m.count >> m.start) &&
                 m.count > 0;
            if (ok) l.msgs.push_back(m);
        } else ok = false;
        if (!ok) die("cannot parse words line " + std::to_string(lineno) + ": " + line);
    }
    return l;
}

struct Stalls {
    bool enabled = false;
    uint64_t state = 0;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
};

class Driver {
public:
    Driver(Vtb_top* top, Lists lists, FILE* ev, long timeout, Stalls stalls, bool isolate)
        : top_(top), l_(std::move(lists)), ev_(ev), timeout_(timeout), stalls_(stalls) {
        owner_.assign(l_.dout.size(), -1);
        hold_.assign(l_.pdi.size() + 1, 0);
        if (isolate)
            for (const Message& m : l_.msgs)
                if (m.start >= 0 && m.start < static_cast<long>(l_.pdi.size()))
                    hold_[static_cast<size_t>(m.start)] = m.first;
        for (size_t k = 0; k < l_.msgs.size(); ++k) {
            const Message& m = l_.msgs[k];
            if (m.first < 0 || m.first + m.count > static_cast<long>(l_.dout.size()))
                die("message " + std::to_string(m.id) + " has do words past the list");
            for (long i = m.first; i < m.first + m.count; ++i) owner_[static_cast<size_t>(i)] = static_cast<long>(k);
        }
    }

    int run(long reset_cycles) {
        reset(reset_cycles);
        while (di_ < l_.dout.size()) {
            const int rc = step();
            if (rc) return rc;
            if (cycle_ - last_progress_ > timeout_) {
                std::fprintf(ev_, "TIMEOUT %ld waiting at pdi word %zu of %zu, sdi word %zu of %zu, "
                             "do word %zu of %zu\n", cycle_, pi_, l_.pdi.size(), si_, l_.sdi.size(),
                             di_, l_.dout.size());
                finish();
                return 2;
            }
        }
        finish();
        return 0;
    }

private:
    Vtb_top* top_;
    Lists l_;
    FILE* ev_;
    long timeout_;
    Stalls stalls_;
    std::vector<long> owner_;  // do word -> message
    std::vector<long> hold_;   // pdi word -> do words to be taken before it is offered (--isolate)
    size_t pi_ = 0, si_ = 0, di_ = 0;
    long cycle_ = 0, last_progress_ = 0;

    void reset(long cycles) {
        top_->clk = 0;
        top_->pdi_valid = 0;
        top_->sdi_valid = 0;
        top_->do_ready = 0;
        top_->rst = 1;
        top_->eval();
        for (long i = 0; i < cycles; ++i) edge();
        top_->rst = 0;
        top_->eval();
    }

    void edge() {
        top_->clk = 1;
        top_->eval();
        dump(2 * cycle_);
        top_->clk = 0;
        top_->eval();
        dump(2 * cycle_ + 1);
    }

    void dump(long time) {
#ifdef TB_TRACE
        if (trace_) trace_->dump(static_cast<uint64_t>(time));
#else
        (void)time;
#endif
    }

public:
#ifdef TB_TRACE
    VerilatedVcdC* trace_ = nullptr;
#endif

private:

    int step() {
        const uint64_t r = stalls_.enabled ? stalls_.next() : ~0ULL;
        top_->pdi_valid = pi_ < l_.pdi.size() && (r & 3) &&
                          static_cast<long>(di_) >= hold_[pi_];
        top_->sdi_valid = si_ < l_.sdi.size() && ((r >> 2) & 3);
        top_->do_ready = ((r >> 4) & 3) != 0;
        if (pi_ < l_.pdi.size()) put(top_->pdi_data, l_.pdi[pi_]);
        if (si_ < l_.sdi.size()) put(top_->sdi_data, l_.sdi[si_]);
        top_->eval();
        const bool pdi_fire = top_->pdi_valid && top_->pdi_ready;
        const bool sdi_fire = top_->sdi_valid && top_->sdi_ready;
        const bool do_fire = top_->do_valid && top_->do_ready;
        if (pdi_fire) taken_pdi();
        if (do_fire) {
            if (di_ >= l_.dout.size()) {
                std::fprintf(ev_, "ERROR %ld do_valid with all %zu expected words taken\n", cycle_, l_.dout.size());
                return 3;
            }
            taken_do();
        }
        edge();
        if (pdi_fire) ++pi_;
        if (sdi_fire) ++si_;
        if (pdi_fire || sdi_fire || do_fire) last_progress_ = cycle_;
        ++cycle_;
        return 0;
    }

    void taken_pdi() {
        for (Message& m : l_.msgs)
            if (m.pdi == static_cast<long>(pi_)) m.inst = cycle_;
    }

    void taken_do() {
        const std::string got = to_hex(get(top_->do_data, TB_W), TB_W);
        const int last = top_->do_last ? 1 : 0;
        std::fprintf(ev_, "GOT %zu %ld %s %d\n", di_, cycle_, got.c_str(), last);
        const Expected& e = l_.dout[di_];
        const long k = owner_[di_];
        if (k >= 0) {
            Message& m = l_.msgs[static_cast<size_t>(k)];
            if (!matches(e.hex, got) || e.last != last) m.ok = false;
            if (static_cast<long>(di_) == m.first + m.count - 1) m.status = cycle_;
        }
        ++di_;
    }

    void finish() {
        for (const Message& m : l_.msgs)
            std::fprintf(ev_, "MSG %ld %ld %ld %d\n", m.id, m.inst, m.status, m.ok ? 1 : 0);
        std::fprintf(ev_, "END %ld\n", cycle_);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) die("usage: tb_lwc WORDS EVENTS [--timeout CYCLES] [--stall SEED] [--reset CYCLES] [--isolate 1]");
    long timeout = 10000, reset_cycles = 2;
    bool isolate = false;
    std::string vcd;
    Stalls stalls;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) die("option " + a + " needs a value");
        if (a == "--timeout") timeout = std::atol(argv[++i]);
        else if (a == "--reset") reset_cycles = std::atol(argv[++i]);
        else if (a == "--isolate") isolate = std::atol(argv[++i]) != 0;
        else if (a == "--vcd") vcd = argv[++i];
        else if (a == "--stall") { stalls.enabled = true; stalls.state = std::strtoull(argv[++i], nullptr, 10); }
        else die("unknown option " + a);
    }
    Verilated::commandArgs(1, argv);
    auto top = std::make_unique<Vtb_top>();
    FILE* ev = std::fopen(argv[2], "w");
    if (!ev) die(std::string("cannot write ") + argv[2]);
    Driver driver(top.get(), read_words(argv[1]), ev, timeout, stalls, isolate);
#ifdef TB_TRACE
    // The design's own top-level signals (depth 2: the model's root, then the design's top).
    std::unique_ptr<VerilatedVcdC> trace;
    if (!vcd.empty()) {
        Verilated::traceEverOn(true);
        trace = std::make_unique<VerilatedVcdC>();
        top->trace(trace.get(), 2);
        trace->open(vcd.c_str());
        driver.trace_ = trace.get();
    }
#else
    if (!vcd.empty()) die("--vcd needs a build with tracing (MessageSimulator(trace=True))");
#endif
    const int rc = driver.run(reset_cycles);
#ifdef TB_TRACE
    if (trace) trace->close();
#endif
    std::fclose(ev);
    top->final();
    return rc;
}
