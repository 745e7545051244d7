// A merged sweep table read back for exploring (issue 21): the real small-GPT sweep run through
// the core's shard run and merge, read from SQLite and from CSV into the same table; its axes are
// the settings that vary; every grid value equals the row it came from (or the mean / min of the
// rows an "any" filter leaves); bad files are errors naming the file, never a crash.
#include "core/io/base/import_error.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_grid.h"
#include "core/sweep/sweep_merge.h"
#include "core/sweep/sweep_table.h"
#include "tests/support/small_gpt_merged_sweep.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>

using namespace spillway;

namespace {


void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t axisNamed(const std::vector<SweepAxis>& axes, const std::string& name) {
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (axes[a].name == name) return a;
    throw std::runtime_error("no axis " + name);
}

std::size_t indexOf(const std::vector<std::string>& labels, const std::string& label) {
    return std::size_t(std::find(labels.begin(), labels.end(), label) - labels.begin());
}

}  // namespace

class TestSweepTable : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string csv_, sqlite_;
    MergedSweep merged_;

    // `prefix` + a field naming the failure's file, so a QVERIFY shows the message.
    static void expectImportError(const std::string& file, const std::function<void()>& load, const char* want) {
        try {
            load();
            QFAIL("no error");
        } catch (const ImportError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(file) != std::string::npos, what.c_str());
            QVERIFY2(what.find(want) != std::string::npos, what.c_str());
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        csv_ = dir_.filePath("merged.csv").toStdString();
        sqlite_ = dir_.filePath("merged.sqlite").toStdString();
        merged_ = testing::writeSmallGptMergedSweep(dir_.path().toStdString(), csv_, sqlite_);
        QCOMPARE(merged_.cells.size(), std::size_t(54));  // 3 x 3 x 2 samples x 3 policies
    }

    void sqliteAndCsvGiveTheSameTable() {
        const SweepTable fromSqlite = loadSweepTable(sqlite_);
        const SweepTable fromCsv = loadSweepTable(csv_);
        QCOMPARE(fromSqlite.rows(), merged_.cells.size());
        QCOMPARE(fromCsv.cellIds, fromSqlite.cellIds);
        QCOMPARE(fromCsv.settings.size(), fromSqlite.settings.size());
        QCOMPARE(fromCsv.results.size(), fromSqlite.results.size());
        for (std::size_t s = 0; s < fromCsv.settings.size(); ++s) {
            QCOMPARE(fromCsv.settings[s].name, fromSqlite.settings[s].name);
            QCOMPARE(fromCsv.settings[s].text, fromSqlite.settings[s].text);
            QCOMPARE(fromCsv.settings[s].texts, fromSqlite.settings[s].texts);
            QCOMPARE(fromCsv.settings[s].numbers, fromSqlite.settings[s].numbers);
        }
        for (std::size_t r = 0; r < fromCsv.results.size(); ++r)
            for (std::size_t row = 0; row < fromCsv.rows(); ++row) {
                const double a = fromCsv.results[r].numbers[row], b = fromSqlite.results[r].numbers[row];
                QVERIFY2((std::isnan(a) && std::isnan(b)) || a == b, fromCsv.results[r].name.c_str());
            }
        QCOMPARE(fromSqlite.cellIds.front(), merged_.cells.front().cell);
        QVERIFY(fromSqlite.resultIndex("iteration_time_s") >= 0);
        QVERIFY(fromSqlite.resultIndex("ok") >= 0);
    }

    void axesAreTheSettingsThatVary() {
        const SweepTable table = loadSweepTable(sqlite_);
        const std::vector<SweepAxis> axes = sweepTableAxes(table);
        std::vector<std::string> names;
        for (const SweepAxis& a : axes) names.push_back(a.name);
        // The one profile does not vary; policy, the two grid axes and the sampled latency do.
        QCOMPARE(names, (std::vector<std::string>{"policy", "gpu_capacity_bytes", "pcie.bytes_per_s",
                                                  "fault_latency_ns"}));
        const SweepAxis& policy = axes[0];
        QVERIFY(policy.text);
        QCOMPARE(policy.labels, (std::vector<std::string>{"uvm", "g10", "most"}));
        const SweepAxis& gpu = axes[1];
        QCOMPARE(gpu.numbers, (std::vector<double>{128.0 * (1 << 20), 256.0 * (1 << 20), 512.0 * (1 << 20)}));
        QCOMPARE(gpu.labels[0], std::string("134217728"));
    }

    // With every other axis fixed, each grid point is exactly one row's value.
    void fixedFiltersGiveEachRowsValue() {
        const SweepTable table = loadSweepTable(sqlite_);
        const std::vector<SweepAxis> axes = sweepTableAxes(table);
        SweepGridQuery q;
        q.x = axisNamed(axes, "gpu_capacity_bytes");
        q.y = axisNamed(axes, "pcie.bytes_per_s");
        q.result = std::size_t(table.resultIndex("iteration_time_s"));
        const std::size_t policy = axisNamed(axes, "policy"), latency = axisNamed(axes, "fault_latency_ns");
        q.filters.assign(axes.size(), 0);
        q.filters[policy] = int(indexOf(axes[policy].labels, "g10"));
        q.filters[latency] = 1;
        const SweepGrid grid = sweepGrid(table, axes, q);
        QCOMPARE(grid.width, std::size_t(3));
        QCOMPARE(grid.height, std::size_t(3));
        std::size_t checked = 0;
        const auto& ok = table.results[std::size_t(table.resultIndex("ok"))].numbers;
        for (std::size_t row = 0; row < table.rows(); ++row) {
            if (axes[policy].codes[row] != std::uint32_t(q.filters[policy]) || axes[latency].codes[row] != 1) continue;
            const std::size_t x = axes[q.x].codes[row], y = axes[q.y].codes[row];
            const double want = ok[row] == 1.0 ? table.results[q.result].numbers[row] : std::nan("");
            if (std::isnan(want)) QVERIFY(std::isnan(grid.at(x, y)));
            else QCOMPARE(grid.at(x, y), want);
            QCOMPARE(grid.cellsAt(x, y), std::uint32_t(std::isnan(want) ? 0 : 1));
            ++checked;
        }
        QCOMPARE(checked, std::size_t(9));
    }

    // "any" on the latency: each point combines the two samples' rows.
    void anyFilterCombinesTheRowsItLeaves() {
        const SweepTable table = loadSweepTable(csv_);
        const std::vector<SweepAxis> axes = sweepTableAxes(table);
        SweepGridQuery q;
        q.x = axisNamed(axes, "policy");
        q.y = axisNamed(axes, "gpu_capacity_bytes");
        q.result = std::size_t(table.resultIndex("stall_s"));
        q.filters.assign(axes.size(), kSweepAnyValue);
        q.filters[axisNamed(axes, "pcie.bytes_per_s")] = 2;
        std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> rows;
        const auto& ok = table.results[std::size_t(table.resultIndex("ok"))].numbers;
        const std::size_t pcie = axisNamed(axes, "pcie.bytes_per_s");
        for (std::size_t row = 0; row < table.rows(); ++row)
            if (axes[pcie].codes[row] == 2 && ok[row] == 1.0)
                rows[{axes[q.x].codes[row], axes[q.y].codes[row]}].push_back(table.results[q.result].numbers[row]);
        QVERIFY(!rows.empty());
        for (SweepAggregate aggregate : {SweepAggregate::Mean, SweepAggregate::Min, SweepAggregate::Max}) {
            q.aggregate = aggregate;
            const SweepGrid grid = sweepGrid(table, axes, q);
            for (const auto& [point, values] : rows) {
                double want = 0;
                if (aggregate == SweepAggregate::Mean) {
                    for (double v : values) want += v;
                    want /= double(values.size());
                } else if (aggregate == SweepAggregate::Min) {
                    want = *std::min_element(values.begin(), values.end());
                } else {
                    want = *std::max_element(values.begin(), values.end());
                }
                QCOMPARE(grid.at(point.first, point.second), want);
                QCOMPARE(grid.cellsAt(point.first, point.second), std::uint32_t(values.size()));
            }
        }
    }

    void badQueriesAreRefused() {
        const SweepTable table = loadSweepTable(sqlite_);
        const std::vector<SweepAxis> axes = sweepTableAxes(table);
        SweepGridQuery q;
        q.filters.assign(axes.size(), kSweepAnyValue);
        q.x = q.y = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sweepGrid(table, axes, q));
        q.y = 1;
        q.filters.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sweepGrid(table, axes, q));
    }

    void truncatedSqliteNamesTheFile() {
        const std::string bytes = readText(sqlite_);
        const std::string cut = dir_.filePath("cut.sqlite").toStdString();
        writeText(cut, bytes.substr(0, bytes.size() / 3));
        expectImportError(cut, [&] { loadSweepTable(cut); }, "not a readable merged sweep table");
        const std::string header = dir_.filePath("header-only.sqlite").toStdString();
        writeText(header, bytes.substr(0, 100));
        expectImportError(header, [&] { loadSweepTable(header); }, "merged sweep table");
    }

    void csvWithAMissingColumnNamesFileAndLine() {
        const std::string text = readText(csv_);
        // Drop the "ok" column from the header: not a merged table.
        std::string noOk = text;
        noOk.replace(noOk.find(",ok,"), 4, ",");
        const std::string file = dir_.filePath("no-ok.csv").toStdString();
        writeText(file, noOk);
        expectImportError(file, [&] { loadSweepTable(file); }, "\"ok\"");
        // A row with a field fewer than the header: its line is named.
        std::string shortRow = text;
        const std::size_t third = shortRow.find('\n', shortRow.find('\n', shortRow.find('\n') + 1) + 1);
        shortRow.erase(shortRow.rfind(',', third), 1);
        const std::string file2 = dir_.filePath("short-row.csv").toStdString();
        writeText(file2, shortRow);
        expectImportError(file2, [&] { loadSweepTable(file2); }, ":3");
        // Text in a result column: the line and the column are named.
        std::string textResult = "cell,policy,ok,iteration_time_s,error\nc1,uvm,true,fast,\n";
        const std::string file3 = dir_.filePath("text-result.csv").toStdString();
        writeText(file3, textResult);
        expectImportError(file3, [&] { loadSweepTable(file3); }, "iteration_time_s");
        const std::string missing = dir_.filePath("none.csv").toStdString();
        QVERIFY_THROWS_EXCEPTION(ImportError, loadSweepTable(missing));
        const std::string open = dir_.filePath("open-quote.csv").toStdString();
        writeText(open, "cell,policy,ok\n\"c1,uvm,true\n");
        expectImportError(open, [&] { loadSweepTable(open); }, "never closed");
    }

    void quotedFieldsAreRead() {
        const std::string file = dir_.filePath("quoted.csv").toStdString();
        writeText(file, "cell,profile,policy,ok,stall_s,error\r\n"
                        "a,\"x,\"\"y\"\"\",uvm,true,1.5,\r\n"
                        "b,plain,g10,false,,\"could not \"\"run\"\"\"\r\n");
        const SweepTable table = loadSweepTable(file);
        QCOMPARE(table.rows(), std::size_t(2));
        QCOMPARE(table.settings[0].texts, (std::vector<std::string>{"x,\"y\"", "plain"}));
        QCOMPARE(table.errors[1], std::string("could not \"run\""));
        QVERIFY(std::isnan(table.results[1].numbers[1]));
        QCOMPARE(table.results[0].numbers, (std::vector<double>{1.0, 0.0}));
    }

    void cancelStopsTheLoad() {
        std::atomic<bool> cancel{true};
        LoadProgress progress;
        progress.cancel = &cancel;
        // 54 rows are read before the first check (every 4096): a bigger table is needed.
        std::string text = "cell,policy,ok,stall_s,error\n";
        for (int i = 0; i < 10000; ++i) text += "c" + std::to_string(i) + ",uvm,true,1,\n";
        const std::string file = dir_.filePath("big.csv").toStdString();
        writeText(file, text);
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadSweepTable(file, progress));
    }
};

QTEST_GUILESS_MAIN(TestSweepTable)
#include "tst_sweep_table.moc"
