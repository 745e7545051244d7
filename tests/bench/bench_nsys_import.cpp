// How fast an Nsight Systems SQLite export imports, against reading the same profile as native
// JSON (the baseline, same process): a generated export of N kernels (default 50,000), two
// allocations per kernel at 500 reused addresses (the free of a reused address just before its
// next allocation), and four GPU page faults per kernel in live blocks. Prints the medians and
// the ratio. Run by hand: build-*/tests/bench_nsys_import [kernels] [repeats].
#include "bench_timing.h"
#include "core/io/native/native_json.h"
#include "core/io/gpu_activity/nsys_sqlite_import.h"
#include "core/sqlite/sqlite_connection.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>
#include <vector>

using namespace spillway;
using sqlite::SqliteConnection;
using sqlite::SqliteStatement;

namespace {

// A fixed linear congruential generator: the same export on every machine.
struct Lcg {
    std::uint64_t state = 12345;
    std::uint64_t next(std::uint64_t bound) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % bound;
    }
};

void makeExport(const std::filesystem::path& path, int kernels) {
    SqliteConnection db(path.string(), SqliteConnection::Mode::Create);
    db.exec("PRAGMA synchronous = OFF", "bench");
    db.exec(R"sql(
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
        CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
            deviceId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
            demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);
        CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
            deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
            bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL);
        CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL,
            globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL, address INTEGER NOT NULL,
            numberOfPageFaults INTEGER NOT NULL, faultAccessType INTEGER NOT NULL);
        INSERT INTO ENUM_CUDA_MEM_KIND VALUES (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed');
        INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER VALUES (0, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation'),
            (1, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation');)sql",
            "bench schema");
    db.exec("BEGIN", "bench");
    SqliteStatement name(db, "INSERT INTO StringIds VALUES (?, ?)", "bench");
    for (int i = 0; i < 100; ++i) name.bind(1, std::int64_t(i)).bind(2, fmt::format("kernel_{}(float*)", i)).run(), name.reset();
    SqliteStatement kernel(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 7, ?, ?, ?)", "bench");
    SqliteStatement memory(db, "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (?, 1, 0, 1, ?, 0, ?, 4, ?)", "bench");
    SqliteStatement fault(db, "INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (?, ?, 1, 0, ?, 2, 1)", "bench");
    constexpr std::int64_t kSlots = 500, kBlock = 8 << 20, kBase = 0x7f0000000000;
    Lcg rng;
    std::map<std::int64_t, bool> live;
    std::int64_t t = 1000;
    for (int k = 0; k < kernels; ++k) {
        for (int j = 0; j < 2; ++j) {
            const auto slot = static_cast<std::int64_t>(rng.next(kSlots));
            const auto address = kBase + slot * kBlock;
            if (live.contains(slot)) memory.bind(1, t++).bind(2, address).bind(3, kBlock).bind(4, std::int64_t(1)).run(), memory.reset();
            memory.bind(1, t++).bind(2, address).bind(3, kBlock).bind(4, std::int64_t(0)).run(), memory.reset();
            live[slot] = true;
        }
        const std::int64_t start = t + 50, end = start + 5000 + static_cast<std::int64_t>(rng.next(45000));
        kernel.bind(1, start).bind(2, end).bind(3, std::int64_t(k)).bind(4, std::int64_t(k % 100)).bind(5, std::int64_t(k % 100)).run();
        kernel.reset();
        for (int f = 0; f < 4; ++f) {
            auto it = live.begin();
            std::advance(it, static_cast<long>(rng.next(live.size())));
            fault.bind(1, start + 10 + f).bind(2, start + 20 + f).bind(3, kBase + it->first * kBlock + 4096 * f).run();
            fault.reset();
        }
        t = end + 200;
    }
    db.exec("COMMIT", "bench");
}

}  // namespace

int main(int argc, char** argv) {
    const int kernels = argc > 1 ? std::atoi(argv[1]) : 50000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("bench_nsys_import.{}", ::getpid());
    std::filesystem::create_directories(dir);
    const auto sqlite = dir / "export.sqlite";
    const auto json = dir / "export.profile.json";
    makeExport(sqlite, kernels);
    // The whole export: its kernel names repeat, so by default one iteration would be read.
    ImportOptions whole;
    whole.iteration = ImportOptions::kAllIterations;
    Profile profile = importNsysSqlite(sqlite, whole);
    saveNativeProfile(profile, json);
    const double native = timing::medianMs(repeats, [&] { (void)readNativeProfile(json); });
    const double nsys = timing::medianMs(repeats, [&] { (void)importNsysSqlite(sqlite, whole); });
    fmt::print("export: {} kernels, {} tensors, {:.1f} MiB SQLite, {:.1f} MiB as native JSON\n", profile.kernels.size(),
               profile.tensors.size(), std::filesystem::file_size(sqlite) / 1048576.0,
               std::filesystem::file_size(json) / 1048576.0);
    fmt::print("read native JSON (baseline)  {:9.1f} ms\n", native);
    fmt::print("import nsys SQLite           {:9.1f} ms  x{:.2f}\n", nsys, nsys / native);
    std::filesystem::remove_all(dir);
    return 0;
}
