#pragma once
// Pickles written byte by byte, as Python's pickler lays them out at protocol 4, for tests that
// need a snapshot shape no fixture has (millions of bytes, or one dict in two places).
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <algorithm>

namespace spillway::test {

class PickleBytes {
public:
    PickleBytes() { raw({0x80, 4}); }  // PROTO 4

    void raw(std::initializer_list<int> bytes) {
        for (int b : bytes) out_.push_back(static_cast<char>(b));
    }
    void emptyDict() { raw({'}'}); }
    void emptyList() { raw({']'}); }
    void mark() { raw({'('}); }
    void setItems() { raw({'u'}); }
    void appends() { raw({'e'}); }
    void append() { raw({'a'}); }
    void none() { raw({'N'}); }
    void stop() { raw({'.'}); }
    void put(std::uint32_t index) {  // LONG_BINPUT
        raw({'r'});
        le(index, 4);
    }
    void get(std::uint32_t index) {  // LONG_BINGET
        raw({'j'});
        le(index, 4);
    }

    void text(std::string_view s) {
        raw({'X'});  // BINUNICODE, 4-byte little-endian length
        le(s.size(), 4);
        out_.append(s);
    }
    void integer(std::uint64_t v) {
        raw({0x8a, 8});  // LONG1, 8 bytes little-endian (addresses need more than BININT)
        le(v, 8);
    }
    // "key": value pairs are written by the caller between mark() and setItems().
    void key(std::string_view k) { text(k); }

    const std::string& bytes() const { return out_; }
    std::size_t size() const { return out_.size(); }

private:
    void le(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string out_;
};

// A torch 2.1+ snapshot of `pairs` allocations, each an "alloc" then a "free_completed" entry
// at its own address, as PyTorch writes it: every entry its own frames list, of references to a
// few frame dicts (three distinct stacks in all), every container memoized. About 200 bytes
// per entry.
inline std::string syntheticSnapshot(int pairs) {
    PickleBytes p;
    std::uint32_t memo = 0;
    p.emptyDict();
    p.put(memo++);
    p.mark();
    p.key("segments");
    p.emptyList();
    p.put(memo++);
    p.key("device_traces");
    p.emptyList();
    p.put(memo++);
    p.emptyList();  // device 0
    p.put(memo++);
    constexpr int kFrames = 5;
    std::uint32_t frameMemo[kFrames] = {};
    bool written[kFrames] = {};
    auto frame = [&](int f) {
        if (written[f]) return p.get(frameMemo[f]);
        p.emptyDict();
        frameMemo[f] = memo;
        p.put(memo++);
        p.mark();
        p.key("filename");
        p.text("/home/ada/model_" + std::to_string(f) + ".py");
        p.key("line");
        p.integer(static_cast<std::uint64_t>(10 + f));
        p.key("name");
        p.text(f == 4 ? "backward" : "forward");
        p.setItems();
        written[f] = true;
    };
    auto entry = [&](const char* action, std::uint64_t addr, int n) {
        p.emptyDict();
        p.put(memo++);
        p.mark();
        p.key("action");
        p.text(action);
        p.key("addr");
        p.integer(addr);
        p.key("size");
        p.integer(4096);
        p.key("stream");
        p.integer(0);
        p.key("time_us");
        p.integer(1'700'000'000'000'000ull + static_cast<std::uint64_t>(n));
        p.key("frames");
        p.emptyList();
        p.put(memo++);
        p.mark();
        for (int f = 0; f < 4; ++f) frame((n % 3 + f) % kFrames);
        p.appends();
        p.setItems();
    };
    for (int batch = 0; batch < 2 * pairs; batch += 1000) {
        p.mark();
        for (int n = batch; n < std::min(batch + 1000, 2 * pairs); ++n)
            entry(n % 2 == 0 ? "alloc" : "free_completed", 0x7f0000000000ull + 0x1000ull * static_cast<std::uint64_t>(n / 2), n);
        p.appends();
    }
    p.append();  // device 0 into device_traces
    p.setItems();
    p.stop();
    return p.bytes();
}

}  // namespace spillway::test
