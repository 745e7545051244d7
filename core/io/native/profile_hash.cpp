#include "core/io/native/profile_hash.h"

#include "core/io/native/native_json.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace spillway {

std::string sha256Text(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "sha256:";
    for (unsigned int i = 0; i < length; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 0xf];
    }
    return out;
}

std::string profileHash(const Profile& profile) { return sha256Text(writeNativeProfile(profile)); }

}  // namespace spillway
