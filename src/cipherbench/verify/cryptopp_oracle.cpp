// Crypto++ as an independent block-cipher oracle for the cipherbench model tests.
//
// usage: cryptopp_oracle CLASS enc|dec      (cryptopp_oracle --list prints the class names)
// stdin: one "KEYHEX BLOCKHEX" pair per line; blank lines and lines starting with '#' are skipped.
// stdout: the encrypted (or decrypted) block as lowercase hex, one line per input pair, in order.
// Errors go to stderr as one line "cryptopp_oracle: line N: ..." and the exit status is 2.
//
// One process serves many lines so that the Python tests pay the start-up cost once; the key is set
// again only when it changes from the previous line.
//
// This file is a template: software/cppbuild.py fills in the includes and the table from the
// Crypto++ classes the ciphers declare, then builds it with
// g++ -O2 -std=c++17 cryptopp_oracle.cpp -o cryptopp_oracle -lcryptopp   (Debian libcrypto++-dev).

#if __has_include(<crypto++/cryptlib.h>)
#include <crypto++/cryptlib.h>
// @CRYPTOPP_INCLUDES crypto++@
#else
#include <cryptopp/cryptlib.h>
// @CRYPTOPP_INCLUDES cryptopp@
#endif

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;
using Factory = std::unique_ptr<CryptoPP::BlockCipher> (*)(bool decrypt);

template <class Cipher>
std::unique_ptr<CryptoPP::BlockCipher> make(bool decrypt) {
    if (decrypt) {
        return std::unique_ptr<CryptoPP::BlockCipher>(new typename Cipher::Decryption());
    }
    return std::unique_ptr<CryptoPP::BlockCipher>(new typename Cipher::Encryption());
}

// The Crypto++ classes the registered ciphers declare (CipherInfo.cryptopp), by class name.
const std::map<std::string, Factory>& ciphers() {
    static const std::map<std::string, Factory> table = {
        // @CRYPTOPP_CLASSES@
    };
    return table;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool parse_hex(const std::string& text, Bytes& out) {
    if (text.size() % 2) return false;
    out.clear();
    for (size_t i = 0; i < text.size(); i += 2) {
        int high = hex_value(text[i]), low = hex_value(text[i + 1]);
        if (high < 0 || low < 0) return false;
        out.push_back(static_cast<unsigned char>(high * 16 + low));
    }
    return true;
}

void print_hex(const Bytes& data) {
    static const char digits[] = "0123456789abcdef";
    std::string line;
    line.reserve(data.size() * 2 + 1);
    for (unsigned char byte : data) {
        line.push_back(digits[byte >> 4]);
        line.push_back(digits[byte & 15]);
    }
    line.push_back('\n');
    std::fputs(line.c_str(), stdout);
}

int fail(long line, const std::string& message) {
    std::fflush(stdout);
    std::cerr << "cryptopp_oracle: line " << line << ": " << message << std::endl;
    return 2;
}

int usage(const std::string& problem) {
    std::cerr << "cryptopp_oracle: " << problem << "; usage: cryptopp_oracle CLASS enc|dec (classes:";
    for (const auto& entry : ciphers()) std::cerr << " " << entry.first;
    std::cerr << ")" << std::endl;
    return 2;
}

int run(CryptoPP::BlockCipher& cipher) {
    Bytes key, previous_key, block, output(cipher.BlockSize());
    bool keyed = false;
    std::string line;
    long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream fields(line);
        std::string key_hex, block_hex, extra;
        if (!(fields >> key_hex) || key_hex[0] == '#') continue;
        if (!(fields >> block_hex) || (fields >> extra)) return fail(number, "expected 'KEYHEX BLOCKHEX'");
        if (!parse_hex(key_hex, key)) return fail(number, "key is not whole bytes of hex");
        if (!parse_hex(block_hex, block)) return fail(number, "block is not whole bytes of hex");
        if (block.size() != cipher.BlockSize()) {
            return fail(number, "block must be " + std::to_string(cipher.BlockSize()) + " bytes, got " +
                                    std::to_string(block.size()));
        }
        if (!keyed || key != previous_key) {
            if (!cipher.IsValidKeyLength(key.size())) {
                return fail(number, "key length " + std::to_string(key.size()) + " bytes is not valid for " +
                                        cipher.AlgorithmName());
            }
            cipher.SetKey(key.data(), key.size());
            previous_key = key;
            keyed = true;
        }
        cipher.ProcessBlock(block.data(), output.data());
        print_hex(output);
    }
    std::fflush(stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--list") {
        for (const auto& entry : ciphers()) {
            std::cout << entry.first << " " << entry.second(false)->BlockSize() * 8 << "\n";
        }
        return 0;
    }
    if (argc != 3) return usage("expected two arguments");
    auto found = ciphers().find(argv[1]);
    if (found == ciphers().end()) return usage(std::string("unknown cipher '") + argv[1] + "'");
    std::string direction = argv[2];
    if (direction != "enc" && direction != "dec") return usage("direction must be enc or dec");
    std::ios::sync_with_stdio(false);
    try {
        auto cipher = found->second(direction == "dec");
        return run(*cipher);
    } catch (const CryptoPP::Exception& error) {
        return fail(0, error.what());
    }
}
