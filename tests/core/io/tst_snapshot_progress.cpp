// Opening a big memory snapshot moves the progress bar while the pickle is read, not only
// after it: the reader reports its byte position every MiB (as the JSON parse does, see
// tst_load_progress), in order, and a cancel part way through the read stops the load.
#include "core/io/profile_loader.h"
#include "core/io/torch_snapshot/torch_snapshot_import.h"
#include "tests/core/io/pickle_bytes.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace spillway;

namespace {

struct Report {
    double fraction;
    std::string stage;
};

}  // namespace

class TestSnapshotProgress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path file_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        file_ = std::filesystem::path(dir_.path().toStdString()) / "big.snapshot.pickle";
        const auto bytes = test::syntheticSnapshot(40000);
        std::ofstream(file_, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        QVERIFY2(std::filesystem::file_size(file_) > (6u << 20), "the pickle must span several MiB");
    }

    void theReadReportsItsPosition() {
        std::vector<Report> reports;
        LoadProgress progress;
        progress.report = [&](double f, std::string_view stage) { reports.push_back({f, std::string(stage)}); };
        const Profile loaded = loadProfile(file_, {}, progress);
        QVERIFY(loaded == importTorchSnapshot(file_));
        QCOMPARE(reports.back().stage, std::string("done"));
        QCOMPARE(reports.back().fraction, 1.0);
        std::vector<double> parsing;
        for (size_t i = 0; i < reports.size(); ++i) {
            if (i > 0) QVERIFY2(reports[i].fraction >= reports[i - 1].fraction, "progress went backwards");
            if (reports[i].stage == "parsing") parsing.push_back(reports[i].fraction);
        }
        // One report per MiB of pickle, each further along the bar than the one before.
        QVERIFY2(parsing.size() >= 5, std::to_string(parsing.size()).c_str());
        for (size_t i = 1; i < parsing.size(); ++i) QVERIFY(parsing[i] > parsing[i - 1]);
        QVERIFY(parsing.back() - parsing.front() > 0.2);
    }

    void cancelDuringTheReadStopsIt() {
        std::atomic<bool> cancel{false};
        std::vector<Report> reports;
        LoadProgress progress;
        progress.cancel = &cancel;
        int parsing = 0;
        progress.report = [&](double f, std::string_view stage) {
            reports.push_back({f, std::string(stage)});
            if (stage == "parsing" && ++parsing == 3) cancel = true;  // a couple of MiB in
        };
        QVERIFY_THROWS_EXCEPTION(LoadCancelled, loadProfile(file_, {}, progress));
        QCOMPARE(reports.back().stage, std::string("parsing"));
        QVERIFY(reports.back().fraction < 0.5);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotProgress)
#include "tst_snapshot_progress.moc"
