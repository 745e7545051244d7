// A design sweep's cells, shards, results files and merge: ids are stable and sort in the
// enumeration's order; the shards of N partition the cells (disjoint, complete, the same every
// time); a shard's file resumes (a half-written last line is redone, the rest kept) and refuses a
// file of another spec hash or shard; a merge refuses mixed hashes and cells written twice, and
// gives the same table from 3 shards on 1 thread as from one run on 4 threads.
#include "core/io/base/import_error.h"
#include "core/io/valid_profile.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_merge.h"

#include <fmt/format.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace spillway;
using nlohmann::json;

namespace {

const std::string kProfile = std::string(SPILLWAY_SOURCE_DIR) + "/samples/lessons/small-gpt.profile.json";

// 2 GPU sizes x 2 PCIe bandwidths x 3 samples x 2 policies = 24 cells of the small GPT.
json specJson(const std::string& name = "shards") {
    return {{"format", "spillway.sweep/1"},
            {"name", name},
            {"profiles", {kProfile}},
            {"policies", {"uvm", "g10"}},
            {"hardware", {{"preset", "g10-a100"}, {"set", {{"iterations", 2}}}}},
            {"axes", {{{"key", "gpu_capacity"}, {"values", {"128MiB", "512MiB"}}},
                      {{"key", "pcie.bandwidth"}, {"values", {"4GB/s", "16GB/s"}}}}},
            {"samples", {{"method", "random"}, {"count", 3}, {"seed", 11},
                         {"axes", {{{"key", "fault_latency"}, {"from", "10us"}, {"to", "50us"}}}}}}};
}

LoadedDesignSweep load(const json& doc) {
    static const auto profile = std::make_shared<const Profile>(loadValidProfile(kProfile));
    return prepareDesignSweep(parseDesignSweepSpec(doc.dump(), "spec.json", "/"), {profile});
}

std::string readAll(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeAll(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

// The ImportError's "file:line" and message, or "" when `body` did not throw one.
template <typename F>
std::string importError(F&& body) {
    try {
        body();
    } catch (const ImportError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestDesignSweepShards : public QObject {
    Q_OBJECT
private slots:
    void idsAreStableAndSortInOrder() {
        const LoadedDesignSweep sweep = load(specJson());
        QCOMPARE(sweep.cells, std::uint64_t(24));
        std::set<std::string> ids;
        std::string previous;
        for (std::uint64_t i = 0; i < sweep.cells; ++i) {
            const DesignSweepCell cell = cellAt(sweep.spec, i);
            QCOMPARE(cell.id, cellAt(load(specJson()).spec, i).id);
            QVERIFY(cell.id > previous);
            previous = cell.id;
            ids.insert(cell.id);
            QCOMPARE(cell.settings["policy"].get<std::string>(), i % 2 ? std::string("g10") : std::string("uvm"));
        }
        QCOMPARE(ids.size(), size_t(24));
        QVERIFY(cellAt(sweep.spec, 0).id.starts_with("000000-"));
        // The settings: profile, policy, every axis with its unit, the sampled key last.
        const auto& s = cellAt(sweep.spec, 23).settings;
        QCOMPARE(s["gpu_capacity_bytes"].get<std::int64_t>(), std::int64_t(512) << 20);
        QCOMPARE(s["pcie.bytes_per_s"].get<std::int64_t>(), std::int64_t(16'000'000'000));
        QCOMPARE(std::prev(s.end()).key(), std::string("fault_latency_ns"));
        // The same settings under a spec that differs elsewhere keep their hash part.
        QCOMPARE(cellAt(load(specJson("renamed")).spec, 5).id, cellAt(sweep.spec, 5).id);
    }

    void shardsPartitionTheCells() {
        for (std::uint64_t n : {1, 2, 5, 24, 30}) {
            std::vector<int> owners(100, 0);
            for (std::uint64_t k = 0; k < n; ++k) {
                const auto cells = shardCells(100, parseShard(fmt::format("{}/{}", k, n)));
                QCOMPARE(cells, shardCells(100, {k, n}));
                for (std::uint64_t c : cells) ++owners[c];
            }
            for (int o : owners) QCOMPARE(o, 1);
        }
        for (const char* bad : {"3/3", "-1/3", "1", "1/0", "a/b", "1/2/3", ""})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseShard(bad));
    }

    void hashFollowsSpecAndProfiles() {
        QCOMPARE(load(specJson()).hash, load(specJson()).hash);
        QVERIFY(load(specJson()).hash != load(specJson("renamed")).hash);
        const DesignSweepSpec spec = parseDesignSweepSpec(specJson().dump(), "spec.json", "/");
        QVERIFY(designSweepHash(spec, {"sha256:a"}) != designSweepHash(spec, {"sha256:b"}));
        QVERIFY(load(specJson()).hash.starts_with("sha256:"));
    }

    void shardedOnOneThreadEqualsOneRunOnFour() {
        QTemporaryDir dir;
        const LoadedDesignSweep sweep = load(specJson());
        ShardRunOptions all;
        all.threads = 4;
        const ShardRunSummary whole = runDesignSweepShard(sweep, dir.filePath("all.jsonl").toStdString(), all);
        QCOMPARE(whole.ran, std::uint64_t(24));
        std::vector<std::filesystem::path> shards;
        for (std::uint64_t k = 0; k < 3; ++k) {
            shards.push_back(dir.filePath(QString("shard-%1.jsonl").arg(k)).toStdString());
            ShardRunOptions one;
            one.shard = {k, 3};
            one.threads = 1;
            QCOMPARE(runDesignSweepShard(sweep, shards.back(), one).ran, std::uint64_t(8));
        }
        const MergedSweep merged = mergeSweepShards(shards);
        QCOMPARE(merged.missing(), std::uint64_t(0));
        const std::string csv = mergedSweepCsv(merged);
        QCOMPARE(csv, mergedSweepCsv(mergeSweepShards({dir.filePath("all.jsonl").toStdString()})));
        QVERIFY(csv.starts_with("cell,profile,policy,gpu_capacity_bytes,pcie.bytes_per_s,fault_latency_ns,ok,"
                                "iteration_time_s,"));
        // At least one cell oversubscribes: the numbers are not all alike.
        std::set<double> times;
        for (const auto& c : merged.cells) times.insert(c.result["iteration_time_s"].get<double>());
        QVERIFY(times.size() > 4);
    }

    void resumeRedoesAHalfWrittenLineOnly() {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.jsonl");
        const LoadedDesignSweep sweep = load(specJson());
        ShardRunOptions shard;
        shard.shard = {1, 2};
        runDesignSweepShard(sweep, path.toStdString(), shard);
        const std::string full = readAll(path);
        const auto lines = std::count(full.begin(), full.end(), '\n');
        QCOMPARE(lines, 12);
        writeAll(path, full.substr(0, full.size() - 30));  // killed while writing the last line
        const ShardRunSummary again = runDesignSweepShard(sweep, path.toStdString(), shard);
        QVERIFY(again.droppedPartialLine);
        QCOMPARE(again.alreadyDone, std::uint64_t(11));
        QCOMPARE(again.ran, std::uint64_t(1));
        const std::string resumed = readAll(path);
        QCOMPARE(std::count(resumed.begin(), resumed.end(), '\n'), 12);
        QCOMPARE(mergeSweepShards({path.toStdString()}).cells.size(), size_t(12));
        // Nothing left: a third run runs nothing and changes nothing.
        QCOMPARE(runDesignSweepShard(sweep, path.toStdString(), shard).ran, std::uint64_t(0));
        QCOMPARE(readAll(path), resumed);
    }

    void resumeRefusesAnotherSpecOrShard() {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.jsonl");
        ShardRunOptions shard;
        shard.shard = {0, 2};
        runDesignSweepShard(load(specJson()), path.toStdString(), shard);
        const std::string before = readAll(path);
        const std::string other =
            importError([&] { runDesignSweepShard(load(specJson("edited")), path.toStdString(), shard); });
        QVERIFY2(other.starts_with(path.toStdString() + ":1: results of another sweep"), other.c_str());
        ShardRunOptions wrong;
        wrong.shard = {1, 2};
        const std::string moved = importError([&] { runDesignSweepShard(load(specJson()), path.toStdString(), wrong); });
        QVERIFY2(moved.find("is not in shard 1/2") != std::string::npos, moved.c_str());
        QCOMPARE(readAll(path), before);  // refused files are left as they were
    }

    void mergeRefusesMixedHashesAndDuplicates() {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.jsonl").toStdString(), b = dir.filePath("b.jsonl").toStdString(),
                          c = dir.filePath("c.jsonl").toStdString();
        runDesignSweepShard(load(specJson()), a, {{0, 2}});
        runDesignSweepShard(load(specJson("edited")), b, {{1, 2}});
        runDesignSweepShard(load(specJson()), c, {{0, 2}});
        const std::string mixed = importError([&] { mergeSweepShards({a, b}); });
        QVERIFY2(mixed.starts_with(b + ":1: spec hash") && mixed.find(a + ":1") != std::string::npos, mixed.c_str());
        const std::string twice = importError([&] { mergeSweepShards({a, c}); });
        QVERIFY2(twice.starts_with(c + ":") && twice.find("is also at " + a) != std::string::npos, twice.c_str());
        QCOMPARE(mergeSweepShards({a}).missing(), std::uint64_t(12));
        writeAll(QString::fromStdString(c), "{\"format\": \"spillway.sweep-cell/1\"}\n");
        const std::string broken = importError([&] { mergeSweepShards({c}); });
        QVERIFY2(broken.starts_with(c + ":1: /spec_hash"), broken.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDesignSweepShards)
#include "tst_design_sweep_shards.moc"
