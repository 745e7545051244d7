// The MIP solve's hard deadline (core/layout/mip_deadline.h): an answer comes back whole from the
// child process; a solve that never ends is killed at the deadline and reported as no solution;
// a child that dies says so; and a real CBC solve still proves a small optimum through it.
#include "core/layout/mip_deadline.h"
#include "core/layout/mip_solver.h"

#include <QtTest>

#include <cstdlib>
#include <unistd.h>

using namespace spillway;

class TestMipDeadline : public QObject {
    Q_OBJECT
private slots:
    void anAnswerComesBackWhole() {
        const MipResult r = runWithDeadline(
            [] {
                MipResult m;
                m.status = MipStatus::Feasible;
                m.objective = 42.5;
                m.bound = 40;
                m.values.assign(300000, 0.25);  // more than a pipe holds at once
                m.values.back() = 7;
                m.note = "from the child";
                return m;
            },
            600);
        QVERIFY(r.status == MipStatus::Feasible);
        QCOMPARE(r.objective, 42.5);
        QCOMPARE(r.bound, 40.0);
        QCOMPARE(r.values.size(), size_t(300000));
        QCOMPARE(r.values.front(), 0.25);
        QCOMPARE(r.values.back(), 7.0);
        QCOMPARE(r.note, std::string("from the child"));
    }

    void aSolveThatNeverEndsIsKilledAtTheDeadline() {
        const MipResult r = runWithDeadline(
            []() -> MipResult {
                for (;;) ::pause();
            },
            0.2);
        QVERIFY(r.status == MipStatus::NoSolution);
        QVERIFY(r.values.empty());
        QVERIFY2(r.note.find("did not stop") != std::string::npos, r.note.c_str());
    }

    void aChildThatDiesSaysSo() {
        const MipResult r = runWithDeadline([]() -> MipResult { ::_exit(1); }, 600);
        QVERIFY(r.status == MipStatus::NoSolution);
        QVERIFY2(r.note.find("without an answer") != std::string::npos, r.note.c_str());
    }

    void cbcStillSolvesThroughIt() {
        // max x + 2y subject to x + y <= 4, x <= 3, integers: x = 0, y = 4 (as a minimisation).
        MipModel m;
        const int x = m.addVariable(0, 3, -1, true), y = m.addVariable(0, 10, -2, true);
        m.addConstraint({{x, 1}, {y, 1}}, -kMipInfinity, 4);
        const MipResult r = m.solve(30);
        QVERIFY(r.status == MipStatus::Optimal);
        QCOMPARE(r.objective, -8.0);
        QCOMPARE(r.values.at(size_t(y)), 4.0);
    }
};

QTEST_GUILESS_MAIN(TestMipDeadline)
#include "tst_mip_deadline.moc"
