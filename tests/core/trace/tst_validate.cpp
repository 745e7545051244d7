// validateProfile: every kind of problem is reported at the right JSON pointer, persistent
// tensors are exempt from the order rule, and several problems come back together. Each case
// starts from the valid hand-made training step (../analysis/small_training_step.h) and breaks
// one thing, so the expected list is exactly the problems introduced.
#include "core/trace/validate.h"
#include "../analysis/small_training_step.h"

#include <QtTest>

using namespace spillway;

namespace {
QStringList pointers(const std::vector<ValidationProblem>& problems) {
    QStringList out;
    for (const auto& p : problems) out << QString::fromStdString(p.pointer);
    return out;
}

void expectOne(const Profile& p, const char* pointer, const char* messagePart) {
    const auto problems = validateProfile(p);
    QCOMPARE(pointers(problems), QStringList{pointer});
    QVERIFY2(problems[0].message.find(messagePart) != std::string::npos, problems[0].message.c_str());
}
}  // namespace

class TestValidate : public QObject {
    Q_OBJECT
private slots:
    void validProfileHasNoProblems() {
        // Includes W read (kernel 1) before its update (kernel 4), E never written, X an input
        // nobody writes, T rewritten after its last read, and U never used: all fine.
        QVERIFY(validateProfile(testing::smallTrainingStep()).empty());
        QVERIFY(validateProfile(Profile{}).empty());
    }

    void unknownTensorIds() {
        auto p = testing::smallTrainingStep();
        p.kernels[2].inputs[1] = 999;  // loss reads an id no tensor has
        expectOne(p, "/kernels/2/inputs/1", "unknown tensor id 999");
        p = testing::smallTrainingStep();
        p.kernels[3].outputs[1] = 998;
        expectOne(p, "/kernels/3/outputs/1", "writes unknown tensor id 998");
    }

    void readBeforeProduced() {
        // k0 (id 7) reads tensor 1, which only k1 (id 8) writes. Not a cycle: one direction.
        Profile p;
        p.tensors.resize(1);
        p.tensors[0].id = 1;
        p.tensors[0].bytes = 4;
        p.kernels.resize(2);
        p.kernels[0].id = 7;
        p.kernels[0].duration = 1;
        p.kernels[0].inputs = {1};
        p.kernels[1].id = 8;
        p.kernels[1].duration = 1;
        p.kernels[1].outputs = {1};
        expectOne(p, "/kernels/0/inputs/0", "before kernel 8 produces it");
    }

    void persistentTensorsAreExempt() {
        // W (position 0) is read by kernel 1 and written by kernel 4: fine while persistent.
        // Once it is not, kernel 1 reads it before kernel 4 produces it, and since kernel 4
        // depends on kernel 1 (through B, L, G) the data flow is a cycle 1 -> 2 -> 3 -> 4 -> 1.
        auto p = testing::smallTrainingStep();
        p.tensors[0].persistent = false;
        const auto problems = validateProfile(p);
        QCOMPARE(pointers(problems), (QStringList{"/kernels/1/inputs/1", "/kernels/1"}));
        QVERIFY(problems[0].message.find("before kernel 104 produces it") != std::string::npos);
        QVERIFY2(problems[1].message.find("101 -> 102 -> 103 -> 104 -> 101") != std::string::npos,
                 problems[1].message.c_str());
    }

    void sizesAndDurations_data() {
        QTest::addColumn<int>("what");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero bytes") << 0 << "/tensors/3/bytes" << "size 0 bytes";
        QTest::newRow("negative bytes") << 1 << "/tensors/3/bytes" << "size -5 bytes";
        QTest::newRow("zero duration") << 2 << "/kernels/2/duration_ns" << "duration 0 ns";
        QTest::newRow("negative duration") << 3 << "/kernels/2/duration_ns" << "duration -1 ns";
        QTest::newRow("negative workspace") << 4 << "/kernels/1/workspace_bytes" << "negative workspace -30";
    }
    void sizesAndDurations() {
        QFETCH(int, what);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        auto p = testing::smallTrainingStep();
        switch (what) {
        case 0: p.tensors[3].bytes = 0; break;
        case 1: p.tensors[3].bytes = -5; break;
        case 2: p.kernels[2].duration = 0; break;
        case 3: p.kernels[2].duration = -1; break;
        default: p.kernels[1].workspaceBytes = -30; break;
        }
        expectOne(p, pointer.toUtf8().constData(), message.toUtf8().constData());
    }

    void duplicateIds() {
        auto p = testing::smallTrainingStep();
        p.tensors[6].id = 10;  // U (unused) takes W's id
        expectOne(p, "/tensors/6/id", "duplicate tensor id 10 (first at /tensors/0)");
        p = testing::smallTrainingStep();
        p.kernels[2].id = 100;
        expectOne(p, "/kernels/2/id", "duplicate kernel id 100 (first at /kernels/0)");
        p = testing::smallTrainingStep();
        p.jobs.push_back({0, "again"});
        expectOne(p, "/jobs/1/id", "duplicate job id 0 (first at /jobs/0)");
    }

    void unknownJob() {
        auto p = testing::smallTrainingStep();
        p.tensors[2].job = 3;
        expectOne(p, "/tensors/2/job", "unknown job 3");
        p = testing::smallTrainingStep();
        p.kernels[4].job = 3;
        expectOne(p, "/kernels/4/job", "unknown job 3");
        // A profile that lists no jobs at all puts everything in an implicit one.
        p.jobs.clear();
        QVERIFY(validateProfile(p).empty());
    }

    void cycle() {
        // k0 (id 7) reads 2 and writes 1; k1 (id 8) reads 1 and writes 2. Also a read before
        // its producer, reported first.
        Profile p;
        p.tensors.resize(2);
        for (int i = 0; i < 2; ++i) {
            p.tensors[i].id = i + 1;
            p.tensors[i].bytes = 4;
        }
        p.kernels.resize(2);
        p.kernels[0].id = 7;
        p.kernels[0].duration = 1;
        p.kernels[0].inputs = {2};
        p.kernels[0].outputs = {1};
        p.kernels[1].id = 8;
        p.kernels[1].duration = 1;
        p.kernels[1].inputs = {1};
        p.kernels[1].outputs = {2};
        const auto problems = validateProfile(p);
        QCOMPARE(pointers(problems), (QStringList{"/kernels/0/inputs/0", "/kernels/0"}));
        QVERIFY2(problems[1].message.find("cycle through kernels 7 -> 8 -> 7") != std::string::npos,
                 problems[1].message.c_str());
    }

    void severalProblemsAtOnce() {
        auto p = testing::smallTrainingStep();
        p.tensors[1].bytes = 0;            // X
        p.kernels[3].id = 101;             // same as kernel 1
        p.kernels[0].inputs.push_back(77); // unknown tensor
        p.kernels[4].duration = -3;
        // Reported in the order of the checks: duplicates, sizes and durations, uses.
        QCOMPARE(pointers(validateProfile(p)),
                 (QStringList{"/kernels/3/id", "/tensors/1/bytes", "/kernels/4/duration_ns",
                              "/kernels/0/inputs/1"}));
    }
};

QTEST_GUILESS_MAIN(TestValidate)
#include "tst_validate.moc"
