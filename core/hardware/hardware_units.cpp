#include "core/hardware/hardware_units.h"

#include <array>
#include <limits>
#include <stdexcept>
#include <utility>

namespace spillway {

namespace {

// Exact scaling needs more than 64 bits ("99999GB" in bytes times 10^fraction digits).
__extension__ typedef __int128 Wide;

struct Unit {
    std::string_view suffix;
    std::int64_t factor;  // how many base units (bytes, bytes per second, ns) one of these is
};

constexpr std::int64_t kThousand = 1000;
constexpr std::int64_t kKibi = 1024;

constexpr std::array kByteUnits{
    Unit{"B", 1},
    Unit{"kB", kThousand}, Unit{"KB", kThousand},
    Unit{"MB", kThousand * kThousand},
    Unit{"GB", kThousand * kThousand * kThousand},
    Unit{"TB", kThousand * kThousand * kThousand * kThousand},
    Unit{"KiB", kKibi}, Unit{"MiB", kKibi * kKibi}, Unit{"GiB", kKibi * kKibi * kKibi},
    Unit{"TiB", kKibi * kKibi * kKibi * kKibi},
};
constexpr std::array kBandwidthUnits{
    Unit{"B/s", 1},
    Unit{"kB/s", kThousand}, Unit{"KB/s", kThousand},
    Unit{"MB/s", kThousand * kThousand},
    Unit{"GB/s", kThousand * kThousand * kThousand},
    Unit{"TB/s", kThousand * kThousand * kThousand * kThousand},
    Unit{"KiB/s", kKibi}, Unit{"MiB/s", kKibi * kKibi}, Unit{"GiB/s", kKibi * kKibi * kKibi},
};
constexpr std::array kDurationUnits{
    Unit{"ns", 1}, Unit{"us", 1000}, Unit{"\xC2\xB5s", 1000}, Unit{"ms", 1000 * 1000},
    Unit{"s", 1000 * 1000 * 1000},
};

template <size_t N>
std::string unitList(const std::array<Unit, N>& units) {
    std::string s;
    for (const auto& u : units) s += (s.empty() ? "" : ", ") + std::string(u.suffix);
    return s;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// "<digits>[.<digits>][ ]<suffix>", scaled by the suffix's factor and rounded half up to an
// integer; a missing suffix means factor 1 and then no fraction is allowed.
template <size_t N>
std::int64_t parseQuantity(std::string_view text, const std::array<Unit, N>& units,
                           std::string_view what, std::string_view example) {
    const auto fail = [&](const std::string& why) -> std::int64_t {
        throw std::invalid_argument("\"" + std::string(text) + "\" is not " + std::string(what) +
                                    ": " + why + " (e.g. " + std::string(example) +
                                    "; units: " + unitList(units) + ")");
    };
    const auto s = trim(text);
    if (s.empty()) return fail("the value is empty");
    size_t i = 0;
    Wide mantissa = 0;
    int digits = 0;
    int fractionDigits = 0;
    bool seenPoint = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') {
            if (++digits > 30) return fail("too many digits");
            mantissa = mantissa * 10 + (c - '0');
            if (seenPoint) ++fractionDigits;
        } else if (c == '.' && !seenPoint) {
            seenPoint = true;
        } else {
            break;
        }
    }
    if (digits == 0) return fail(s.front() == '-' ? "negative values are not allowed"
                                                  : "expected a number first");
    if (seenPoint && fractionDigits == 0) return fail("expected digits after the decimal point");
    const auto suffix = trim(s.substr(i));
    std::int64_t factor = 1;
    if (!suffix.empty()) {
        bool found = false;
        for (const auto& u : units)
            if (u.suffix == suffix) {
                factor = u.factor;
                found = true;
            }
        if (!found) return fail("unknown unit \"" + std::string(suffix) + "\"");
    }
    Wide divisor = 1;
    for (int d = 0; d < fractionDigits; ++d) divisor *= 10;
    const Wide scaled = mantissa * factor;
    const Wide value = (scaled + divisor / 2) / divisor;
    if (value > std::numeric_limits<std::int64_t>::max()) return fail("the value is too large");
    return static_cast<std::int64_t>(value);
}

// Largest unit in which the value is exact with at most three decimals; the order of `units`
// says which family (binary or decimal) is tried first.
std::string formatQuantity(std::int64_t value, std::initializer_list<Unit> units) {
    for (const auto& u : units) {
        if (value < u.factor) continue;
        if ((static_cast<Wide>(value) * 1000) % u.factor != 0) continue;
        const auto whole = value / u.factor;
        auto frac = static_cast<std::int64_t>((static_cast<Wide>(value % u.factor) * 1000) / u.factor);
        std::string s = std::to_string(whole);
        if (frac != 0) {
            std::string f = std::to_string(frac);
            f.insert(0, 3 - f.size(), '0');
            while (f.back() == '0') f.pop_back();
            s += "." + f;
        }
        return s + std::string(u.suffix);
    }
    return std::to_string(value) + std::string(units.end()[-1].suffix);
}

}  // namespace

std::int64_t parseByteSize(std::string_view text) {
    return parseQuantity(text, kByteUnits, "a size in bytes", "24GiB, 2TB, 4096");
}

std::int64_t parseBandwidth(std::string_view text) {
    return parseQuantity(text, kBandwidthUnits, "a bandwidth", "3.2GB/s, 15.754GB/s");
}

std::int64_t parseDuration(std::string_view text) {
    return parseQuantity(text, kDurationUnits, "a duration", "45us, 20us, 1.5ms");
}

std::int64_t parseCount(std::string_view text) {
    const auto s = trim(text);
    std::int64_t value = 0;
    if (s.empty()) throw std::invalid_argument("expected a whole number, got an empty value");
    for (const char c : s) {
        if (c < '0' || c > '9')
            throw std::invalid_argument("\"" + std::string(text) + "\" is not a whole number (e.g. 2, 256)");
        if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10)
            throw std::invalid_argument("\"" + std::string(text) + "\" is too large");
        value = value * 10 + (c - '0');
    }
    return value;
}

std::string formatByteSize(std::int64_t bytes) {
    if (bytes == 0) return "0B";
    return formatQuantity(bytes, {{"TiB", kKibi * kKibi * kKibi * kKibi}, {"GiB", kKibi * kKibi * kKibi},
                                  {"TB", kThousand * kThousand * kThousand * kThousand},
                                  {"GB", kThousand * kThousand * kThousand}, {"MiB", kKibi * kKibi},
                                  {"MB", kThousand * kThousand}, {"KiB", kKibi}, {"B", 1}});
}

std::string formatBandwidth(std::int64_t bytesPerSecond) {
    if (bytesPerSecond == 0) return "0B/s";
    return formatQuantity(bytesPerSecond,
                          {{"TB/s", kThousand * kThousand * kThousand * kThousand},
                           {"GB/s", kThousand * kThousand * kThousand}, {"GiB/s", kKibi * kKibi * kKibi},
                           {"MB/s", kThousand * kThousand}, {"MiB/s", kKibi * kKibi}, {"B/s", 1}});
}

std::string formatDuration(std::int64_t ns) {
    if (ns == 0) return "0ns";
    return formatQuantity(ns, {{"s", 1000 * 1000 * 1000}, {"ms", 1000 * 1000}, {"us", 1000}, {"ns", 1}});
}

}  // namespace spillway
