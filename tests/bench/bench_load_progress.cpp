// What progress reporting costs and where a load's time goes: for a large generated native
// profile and G10's BERT-256 workload folder, the median time of loadProfile without progress
// (the baseline), with progress and a cancel flag (ratio against the baseline), the share of
// the load spent reading bytes (the first "parsing" report), and how long a cancel during the
// read takes to stop the load. Run by hand: build-*/tests/bench_load_progress [repeats].
#include "bench_timing.h"
#include "core/io/base/file_text.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "tests/core/io/large_profile_fixture.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

using namespace spillway;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

using timing::median;

void bench(const std::string& label, const std::filesystem::path& path, int repeats) {
    std::vector<double> plain, withProgress, readShare, parseShare, cancelStop;
    for (int i = 0; i < repeats; ++i) {
        auto t0 = Clock::now();
        (void)loadProfile(path);
        plain.push_back(ms(Clock::now() - t0));

        std::atomic<bool> cancel{false};
        Clock::time_point parsingAt{};
        LoadProgress progress;
        progress.cancel = &cancel;
        progress.report = [&](double, std::string_view stage) {
            if (stage == "parsing" && parsingAt == Clock::time_point{}) parsingAt = Clock::now();
        };
        t0 = Clock::now();
        (void)loadProfile(path, {}, progress);
        const auto t1 = Clock::now();
        withProgress.push_back(ms(t1 - t0));
        readShare.push_back(ms(parsingAt - t0) / ms(t1 - t0));
        // The JSON parse alone (native files): what the rest of the load is spent on.
        if (!std::filesystem::is_directory(path)) {
            const std::string text = readFileText(path);
            const auto p0 = Clock::now();
            const auto doc = nlohmann::ordered_json::parse(text.begin(), text.end());
            if (doc.empty()) fmt::print("empty document\n");
            parseShare.push_back(ms(Clock::now() - p0) / ms(t1 - t0));
        }

        // Cancel at the first bytes read: how long until loadProfile gives up.
        Clock::time_point cancelAt{};
        LoadProgress cancelling;
        cancelling.cancel = &cancel;
        cancelling.report = [&](double, std::string_view stage) {
            if (stage == "reading" && !cancel) {
                cancel = true;
                cancelAt = Clock::now();
            }
        };
        try {
            (void)loadProfile(path, {}, cancelling);
        } catch (const LoadCancelled&) {
        }
        cancelStop.push_back(cancelAt == Clock::time_point{} ? 0.0 : ms(Clock::now() - cancelAt));
    }
    const double base = median(plain);
    fmt::print("{:<28} {:>10.1f} ms {:>10.1f} ms ({:.3f}x) {:>10.1f} % {:>10.1f} % {:>10.2f} ms\n", label, base,
               median(withProgress), median(withProgress) / base, 100 * median(readShare),
               parseShare.empty() ? 0.0 : 100 * median(parseShare), median(cancelStop));
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const auto dir = std::filesystem::temp_directory_path() / "spillway-bench-load-progress";
    std::filesystem::create_directories(dir);
    const auto big = dir / "large-chain.profile.json";
    saveNativeProfile(test::largeChainProfile(20000, 8), big);
    fmt::print("{:<28} {:>13} {:>22} {:>12} {:>12} {:>13}\n", "input", "load (base)", "with progress", "read share",
               "JSON parse", "cancel stops");
    bench(fmt::format("native {:.0f} MB", double(std::filesystem::file_size(big)) / 1e6), big, repeats);
    const std::filesystem::path bert = SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256";
    if (std::filesystem::exists(bert)) bench("G10 BERT-256 folder", bert, repeats);
    std::filesystem::remove_all(dir);
}
