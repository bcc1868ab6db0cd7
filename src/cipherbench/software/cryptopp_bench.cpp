// Crypto++ software baseline for cipherbench: ECB encryption throughput of one cipher on one core.
//
// usage: cryptopp_bench CLASS KEYBYTES SECONDS    prints "BYTES ELAPSED_SECONDS CHECKSUM"
//        cryptopp_bench --version                 prints the Crypto++ library version, e.g. 8.7.0
//        cryptopp_bench --list                    prints the class names it knows
// Errors: one line on stderr, exit status 2.
//
// A 16384-byte buffer (the size `openssl speed -bytes 16384` uses, so the two libraries are timed
// on the same work unit) is encrypted in place, again and again, until SECONDS of wall-clock time
// have passed. Encrypting in place chains each pass on the previous one, so the compiler cannot
// drop the work; the checksum is printed for the same reason.
//
// This file is a template: software/cppbuild.py fills in the includes and the table from the
// Crypto++ classes the ciphers declare, then builds it with
// g++ -O2 -std=c++17 cryptopp_bench.cpp -o cryptopp_bench -lcryptopp   (Debian libcrypto++-dev).

#if __has_include(<crypto++/cryptlib.h>)
#include <crypto++/cryptlib.h>
#include <crypto++/modes.h>
// @CRYPTOPP_INCLUDES crypto++@
#else
#include <cryptopp/cryptlib.h>
#include <cryptopp/modes.h>
// @CRYPTOPP_INCLUDES cryptopp@
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using Mode = CryptoPP::SymmetricCipher;
using Factory = std::unique_ptr<Mode> (*)(const unsigned char* key, size_t length);

template <class Cipher>
std::unique_ptr<Mode> make(const unsigned char* key, size_t length) {
    return std::unique_ptr<Mode>(new typename CryptoPP::ECB_Mode<Cipher>::Encryption(key, length));
}

// The Crypto++ classes the registered ciphers declare (CipherInfo.cryptopp), by class name.
const std::map<std::string, Factory>& ciphers() {
    static const std::map<std::string, Factory> table = {
        // @CRYPTOPP_CLASSES@
    };
    return table;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "cryptopp_bench: %s\n", message.c_str());
    return 2;
}

int bench(Mode& mode, double seconds) {
    const size_t size = 16384;
    std::vector<unsigned char> buffer(size);
    for (size_t i = 0; i < size; ++i) buffer[i] = static_cast<unsigned char>(i * 7 + 1);
    // One untimed pass warms the caches and the lazily built tables.
    mode.ProcessData(buffer.data(), buffer.data(), size);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    double elapsed = 0.0;
    unsigned long long bytes = 0;
    do {
        mode.ProcessData(buffer.data(), buffer.data(), size);
        bytes += size;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    unsigned checksum = 0;
    for (unsigned char byte : buffer) checksum = checksum * 31 + byte;
    std::printf("%llu %.9f %08x\n", bytes, elapsed, checksum);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--version") {
        const int version = CryptoPP::LibraryVersion();
        std::printf("%d.%d.%d\n", version / 100, (version / 10) % 10, version % 10);
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "--list") {
        for (const auto& entry : ciphers()) std::printf("%s\n", entry.first.c_str());
        return 0;
    }
    if (argc != 4) return fail("usage: cryptopp_bench CLASS KEYBYTES SECONDS");
    const auto found = ciphers().find(argv[1]);
    if (found == ciphers().end()) return fail(std::string("unknown cipher '") + argv[1] + "'");
    const long key_bytes = std::strtol(argv[2], nullptr, 10);
    const double seconds = std::strtod(argv[3], nullptr);
    if (key_bytes <= 0 || seconds <= 0) return fail("KEYBYTES and SECONDS must be positive");
    try {
        std::vector<unsigned char> key(static_cast<size_t>(key_bytes));
        for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(0x11 * (i + 1));
        auto mode = found->second(key.data(), key.size());
        return bench(*mode, seconds);
    } catch (const CryptoPP::Exception& error) {
        return fail(error.what());
    }
}
