// A writer process killed with SIGKILL in the middle of saving runs loses nothing it committed:
// the child saves runs in a loop, one transaction each, and reports each commit through a pipe;
// the parent kills it at a varying moment, reopens the workspace and finds every reported run,
// each equal to what was written, and a file that passes PRAGMA integrity_check.
#include "core/store/workspace.h"
#include "store_test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace spillway;
using namespace spillway::store;
using namespace spillway::testing;

namespace {

// Big enough (about 60k intervals, ~1 MB) that a transaction takes a while to write, so the kill
// often lands inside one.
constexpr std::size_t kSeriesRows = 12'000;

HardwareConfig machineFor(std::int64_t i) {
    HardwareConfig hw = smallMachine();
    hw.id = "crash-" + std::to_string(i);
    hw.gpuCapacity = (16 + i) * kMiB;
    return hw;
}

Plan planFor(std::int64_t i) {
    Plan plan;
    plan.policy = "policy-" + std::to_string(i);
    plan.directives = {{i, DirectiveKind::Prefetch, i + 1, Tier::Gpu, -1}};
    return plan;
}

// The child: never returns into the test framework.
[[noreturn]] void writeRunsUntilKilled(const std::filesystem::path& path, RowId profile, int pipeOut) {
    try {
        auto ws = Workspace::open(path);
        for (std::int64_t i = 0;; ++i) {
            const std::int64_t starting = -(i + 1);  // negative: "about to write run i"
            if (write(pipeOut, &starting, sizeof starting) != sizeof starting) _exit(3);
            ws.addRun(profile, "run " + std::to_string(i), machineFor(i), planFor(i), syntheticResult(i, kSeriesRows));
            // Reported only after commit() returned: the run is durable from here on.
            if (write(pipeOut, &i, sizeof i) != sizeof i) _exit(3);
        }
    } catch (...) {
        _exit(2);
    }
}

}  // namespace

class TestWorkspaceCrash : public QObject {
    Q_OBJECT

private slots:
    void killedWriterLosesNoCommittedRun() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "crash.spillway";
        RowId profile = 0;
        {
            auto ws = Workspace::create(path);
            profile = ws.addProfile(smallStep(), "p");
        }
        std::int64_t committedTotal = 0;
        int killedWhileWriting = 0;
        // Three writers in turn, each killed after a different number of commits and a different
        // pause, so the kill falls at different points of a transaction.
        for (int round = 0; round < 3; ++round) {
            int fds[2];
            QCOMPARE(pipe(fds), 0);
            const pid_t child = fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                close(fds[0]);
                writeRunsUntilKilled(path, profile, fds[1]);
            }
            close(fds[1]);
            std::int64_t reported = -1, value = 0;
            bool writing = false;  // the last message said a run was being written
            const std::int64_t waitFor = 2 + round;
            const auto take = [&] {
                writing = value < 0;
                if (value >= 0) reported = value;
            };
            while (reported + 1 < waitFor && read(fds[0], &value, sizeof value) == sizeof value) take();
            usleep(static_cast<useconds_t>(1500 * (round + 1)));
            kill(child, SIGKILL);
            int status = 0;
            waitpid(child, &status, 0);
            QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the writer died before it was killed");
            // commits reported between the last read and the kill
            while (read(fds[0], &value, sizeof value) == sizeof value) take();
            close(fds[0]);
            if (writing) ++killedWhileWriting;
            QVERIFY(reported + 1 >= waitFor);
            committedTotal += reported + 1;

            auto ws = Workspace::open(path);
            QCOMPARE(ws.integrityCheck(), std::vector<std::string>{"ok"});
            const auto runs = ws.listRuns(profile);
            // every reported commit is there; at most one more (committed, killed before reporting)
            QVERIFY2(static_cast<std::int64_t>(runs.size()) >= committedTotal,
                     (std::to_string(runs.size()) + " runs, " + std::to_string(committedTotal) + " reported").c_str());
            QVERIFY(static_cast<std::int64_t>(runs.size()) <= committedTotal + 1);
            committedTotal = static_cast<std::int64_t>(runs.size());
            for (const auto& summary : runs) {
                const std::int64_t i = std::stoll(summary.name.substr(4));
                const auto run = ws.loadRun(summary.id);
                QVERIFY(run.result == syntheticResult(i, kSeriesRows));
                QVERIFY(run.plan == planFor(i));
                QVERIFY(run.hardware == machineFor(i));
            }
        }
        // Informational, not asserted (it depends on timing): how often the kill hit a write.
        qInfo("%d of 3 writers were killed while writing a run", killedWhileWriting);
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceCrash)
#include "tst_workspace_crash.moc"
