// Loading with progress and cancel: the fractions only grow, start at 0 and end at 1, the bytes
// read of a file larger than one read chunk come in several reports, then the JSON parse reports
// its position, then "building", then "done"; the profile is the same as without progress; a set
// cancel flag stops the load with LoadCancelled while reading or part way through the parse.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "tests/core/io/large_profile_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

using namespace spillway;

namespace {

struct Report {
    double fraction;
    std::string stage;
};

}  // namespace

class TestLoadProgress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path bigFile_;
    Profile big_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        big_ = test::largeChainProfile(4000, 8);  // ~ 8 frames x 130 B x 8000 tensors: > 8 MiB
        bigFile_ = std::filesystem::path(dir_.path().toStdString()) / "big.profile.json";
        saveNativeProfile(big_, bigFile_);
        QVERIFY2(std::filesystem::file_size(bigFile_) > (8u << 20), "the file must span several read chunks");
    }

    void fractionsGrowFromZeroToOne() {
        std::vector<Report> reports;
        LoadProgress progress;
        progress.report = [&](double f, std::string_view stage) { reports.push_back({f, std::string(stage)}); };
        const Profile loaded = loadProfile(bigFile_, {}, progress);
        QCOMPARE(loaded, big_);
        QVERIFY(reports.size() >= 4);
        QCOMPARE(reports.front().fraction, 0.0);
        QCOMPARE(reports.back().fraction, 1.0);
        QCOMPARE(reports.back().stage, std::string("done"));
        int reading = 0;
        for (size_t i = 1; i < reports.size(); ++i) {
            QVERIFY2(reports[i].fraction >= reports[i - 1].fraction, "progress went backwards");
            reading += reports[i].stage == "reading";
        }
        QVERIFY2(reading >= 2, "a file over one chunk reports its bytes more than once");
        // Reading comes before parsing, parsing before done.
        const auto at = [&](const char* stage) {
            for (size_t i = 0; i < reports.size(); ++i)
                if (reports[i].stage == stage) return int(i);
            return -1;
        };
        QVERIFY(at("reading") > 0 && at("parsing") > at("reading") && at("building") > at("parsing") &&
                at("done") > at("building"));
        // The JSON parse of a file over a few MiB reports its position more than once.
        int parsing = 0;
        for (const Report& r : reports) parsing += r.stage == "parsing";
        QVERIFY2(parsing >= 3, "the parse reports its position every MiB");
        int building = 0;
        for (const Report& r : reports) building += r.stage == "building";
        QVERIFY2(building >= 2, "building 8000 tensors and 4000 kernels reports every 4096 items");
    }

    void cancelDuringTheParseStopsIt() {
        std::atomic<bool> cancel{false};
        std::vector<Report> reports;
        LoadProgress progress;
        progress.cancel = &cancel;
        int parsing = 0;
        progress.report = [&](double f, std::string_view stage) {
            reports.push_back({f, std::string(stage)});
            if (stage == "parsing" && ++parsing == 3) cancel = true;  // a few MiB into the parse
        };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadProfile(bigFile_, {}, progress));
        QCOMPARE(reports.back().stage, std::string("parsing"));
    }

    void cancelStopsBeforeParsing() {
        std::atomic<bool> cancel{false};
        std::vector<Report> reports;
        LoadProgress progress;
        progress.cancel = &cancel;
        progress.report = [&](double f, std::string_view stage) {
            reports.push_back({f, std::string(stage)});
            if (stage == "reading") cancel = true;  // the user presses Cancel while reading
        };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadProfile(bigFile_, {}, progress));
        for (const Report& r : reports) QVERIFY(r.stage != "parsing" && r.stage != "done");
        QCOMPARE(reports.back().stage, std::string("reading"));
        QVERIFY(reports.back().fraction < 1.0);
    }

    void cancelledBeforeStartReadsNothing() {
        std::atomic<bool> cancel{true};
        int reports = 0;
        LoadProgress progress;
        progress.cancel = &cancel;
        progress.report = [&](double, std::string_view) { ++reports; };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadProfile(bigFile_, {}, progress));
        QCOMPARE(reports, 0);
    }

    void errorsStayImportErrors() {
        LoadProgress progress;
        QVERIFY_THROWS_EXCEPTION(ImportError, loadProfile(bigFile_.parent_path() / "missing.json", {}, progress));
    }
};

QTEST_GUILESS_MAIN(TestLoadProgress)
#include "tst_load_progress.moc"
