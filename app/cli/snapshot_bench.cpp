#include "app/cli/snapshot_bench.h"

#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"

#include <fmt/format.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <system_error>

namespace spillway::cli {

namespace {

namespace fs = std::filesystem;

struct ChildRun {
    double seconds = 0;
    double peakMiB = 0;  // the child's maximum resident set
    int exitCode = -1;
};

// Runs `body` in a forked child (which must end by exec or _exit) with stdout sent to
// /dev/null, and measures it from here: wall time around fork and wait4, and the child's own
// peak memory from wait4's rusage, the same way for every program compared.
ChildRun runChild(const std::function<void()>& body) {
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) throw std::system_error(errno, std::generic_category(), "bench: fork");
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        body();
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) < 0) throw std::system_error(errno, std::generic_category(), "bench: wait4");
    ChildRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return run;
}

ChildRun execChild(const std::vector<std::string>& argv) {
    return runChild([&] {
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
    });
}

// The median time and the median peak of `runs` runs of one program; any failed run fails all.
nlohmann::ordered_json measure(int runs, const std::function<ChildRun()>& once) {
    std::vector<double> seconds, peaks;
    for (int i = 0; i < runs; ++i) {
        const auto r = once();
        if (r.exitCode != 0) return {{"exit_code", r.exitCode}};
        seconds.push_back(r.seconds);
        peaks.push_back(r.peakMiB);
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(peaks.begin(), peaks.end());
    return {{"seconds", seconds[seconds.size() / 2]}, {"peak_mib", peaks[peaks.size() / 2]}, {"exit_code", 0}};
}

// `source` with its trace repeated `times` times, made by the Python script beside the
// benchmarks; `source` itself for 1.
std::string snapshotOf(const std::string& source, int times, const fs::path& folder, const std::string& python) {
    if (times <= 1) return source;
    const auto out = folder / fmt::format("{}-x{}.pickle", fs::path(source).stem().string(), times);
    const auto made = execChild({python, std::string(SPILLWAY_SOURCE_DIR) + "/tests/bench/make_repeated_snapshot.py",
                                 source, std::to_string(times), out.string()});
    if (made.exitCode != 0)
        throw std::runtime_error(fmt::format("bench: make_repeated_snapshot.py {} {} failed (exit {})", source,
                                             times, made.exitCode));
    return out.string();
}

std::string iterationArg(std::int64_t iteration) {
    if (iteration == ImportOptions::kAllIterations) return "all";
    if (iteration == ImportOptions::kSteadyIteration) return "steady";
    return std::to_string(iteration);
}

nlohmann::ordered_json benchFile(const std::string& path, const SnapshotBenchOptions& o) {
    ImportOptions options;
    options.iteration = o.iteration;
    const auto self = fs::read_symlink("/proc/self/exe").string();
    nlohmann::ordered_json row{{"file", path}, {"mib", static_cast<double>(fs::file_size(path)) / (1 << 20)}};
    row["python_pickle_load"] = measure(o.runs, [&] {
        return execChild({o.python, "-c", "import pickle, sys; pickle.load(open(sys.argv[1], 'rb'))", path});
    });
    // The import alone (the reader, the decoder, the step builder), in a forked child.
    row["spillway_import"] = measure(o.runs, [&] {
        return runChild([&] {
            try {
                const auto profile = loadProfile(path, options);
                _exit(profile.tensors.empty() ? 1 : 0);
            } catch (...) {
                _exit(2);
            }
        });
    });
    // What a user runs: the import and the summary `info` prints.
    row["spillway_cli_info"] =
        measure(o.runs, [&] { return execChild({self, "info", "--iteration", iterationArg(o.iteration), path}); });
    return row;
}

// "1.23 s  456 MiB", then "(xT xM)" against `peer` when there is one to compare with.
std::string cell(const nlohmann::ordered_json& m, const nlohmann::ordered_json* peer) {
    if (m.value("exit_code", -1) != 0) return fmt::format("{:<34}", fmt::format("failed (exit {})", m.value("exit_code", -1)));
    const double s = m["seconds"].get<double>(), mib = m["peak_mib"].get<double>();
    std::string ratio;
    if (peer && peer->value("exit_code", -1) == 0)
        ratio = fmt::format("(x{:.2f} x{:.2f})", s / (*peer)["seconds"].get<double>(), mib / (*peer)["peak_mib"].get<double>());
    return fmt::format("{:>7.2f} s {:>6.0f} MiB {:<14}", s, mib, ratio);
}

}  // namespace

nlohmann::ordered_json runSnapshotBench(const SnapshotBenchOptions& o) {
    const auto folder = fs::temp_directory_path() / fmt::format("spillway-bench-snapshot-{}", getpid());
    fs::create_directories(folder);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    try {
        for (const auto& source : o.snapshots) {
            if (!fs::is_regular_file(source)) throw ImportError(source, "no such snapshot file");
            for (const int times : o.repeats) {
                const auto path = snapshotOf(source, times, folder, o.python);
                auto row = benchFile(path, o);
                row["repeats"] = times;
                rows.push_back(std::move(row));
                if (path != source) fs::remove(path);
            }
        }
    } catch (...) {
        fs::remove_all(folder);
        throw;
    }
    fs::remove_all(folder);
    return {{"runs", o.runs}, {"iteration", iterationArg(o.iteration)}, {"results", rows}};
}

void printSnapshotBench(const nlohmann::ordered_json& results) {
    fmt::print("Snapshot import against python3 pickle.load of the same file (median of {} runs; peak = the\n"
               "child's maximum resident set; (xT xM) = time and peak as multiples of Python's)\n",
               results["runs"].get<int>());
    fmt::print("{:<34} {:>9}  {:<34} {:<34} {}\n", "file", "size", "python3 pickle.load", "spillway import",
               fmt::format("spillway-cli info --iteration {}", results["iteration"].get<std::string>()));
    for (const auto& r : results["results"]) {
        const auto& peer = r["python_pickle_load"];
        fmt::print("{:<34} {:>5.1f} MiB {} {} {}\n", fs::path(r["file"].get<std::string>()).filename().string(),
                   r["mib"].get<double>(), cell(peer, nullptr), cell(r["spillway_import"], &peer),
                   cell(r["spillway_cli_info"], &peer));
    }
}

}  // namespace spillway::cli
