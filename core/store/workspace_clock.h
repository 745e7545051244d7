#pragma once
#include <chrono>
#include <cstdint>

namespace spillway::store {

// Milliseconds since the Unix epoch (UTC): what the created_at / added_at columns hold.
inline std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace spillway::store
