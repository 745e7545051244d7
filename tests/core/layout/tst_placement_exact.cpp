// exact placement (core/layout/placement_exact.cpp): hand-worked instances, a proof of
// infeasibility, the minimalloc benchmarks within their capacity, and that every layout returned
// passes the one verifier. Calls placeExact directly (the `place` dispatcher links only once all
// placement methods are merged).
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"

#include <QtTest>

#include <string>

using namespace spillway;

namespace {

const std::string kData = std::string(SPILLWAY_SHARED_DATA) + "/minimalloc/";

Buffer buffer(const char* id, std::int64_t lower, std::int64_t upper, Bytes size) {
    Buffer b;
    b.id = id;
    b.lower = lower;
    b.upper = upper;
    b.size = size;
    return b;
}

QString violations(const AllocationProblem& problem, const PlacementResult& r) {
    QString out;
    for (const auto& v : verifyLayout(problem, r.layout)) out += QString::fromStdString(v.message) + "\n";
    return out;
}

#define VERIFY_LAYOUT(problem, result)                                  \
    do {                                                                \
        QVERIFY2(!(result).layout.offsets.empty(), (result).note.c_str()); \
        const QString v = violations(problem, result);                  \
        QVERIFY2(v.isEmpty(), qPrintable(v));                           \
    } while (0)

}  // namespace

class TestPlacementExact : public QObject {
    Q_OBJECT
private slots:
    void toyExampleFitsItsCapacity() {
        // input.12.csv: b5 (4) lives throughout, b3 (4) on [0,9), then b1/b2 (4 each) on [0,3) and
        // [3,9), then b4 on [9,21): three layers of 4 at every tick, so 12 is exactly LOAD.
        MinimallocCsv csv = readMinimallocCsv(kData + "examples/input.12.csv");
        csv.problem.capacity = 12;
        const PlacementResult r = placeExact(csv.problem, {});
        QVERIFY2(r.fits, r.note.c_str());
        VERIFY_LAYOUT(csv.problem, r);
        QCOMPARE(r.lowerBound, Bytes(12));
        QCOMPARE(r.arena, Bytes(12));
        QVERIFY(r.provenOptimal);
    }

    void layoutThatNaiveCreationOrderFails() {
        // The ROAM paper's Figure 3 idea. x and y (10 each) are created at tick 0, x first; x dies
        // at tick 1 when z (20) is created. Allocating at creation time, lowest address first,
        // puts x at 0 and y at 10: at tick 1 the 20 free bytes of a 30-byte arena are [0,10) and
        // [20,30), so z does not fit though memory suffices. Placing y at 0 first leaves
        // [10,30) for x and later z: 30 bytes = LOAD (y + z at tick 1).
        AllocationProblem p;
        p.buffers = {buffer("x", 0, 1, 10), buffer("y", 0, 3, 10), buffer("z", 1, 3, 20)};
        p.capacity = 30;
        const PlacementResult r = placeExact(p, {});
        QVERIFY2(r.fits, r.note.c_str());
        VERIFY_LAYOUT(p, r);
        QCOMPARE(r.arena, Bytes(30));
        // The naive layout really is invalid: z cannot go anywhere in [0, 30) beside x=0, y=10.
        for (Bytes z = 0; z + 20 <= 30; ++z) {
            AllocationProblem q = p;
            QVERIFY(!verifyLayout(q, Layout{{0, 10, z}}).empty());
        }
    }

    void infeasibleCapacityIsProvenQuickly() {
        // LOAD does not see alignment: two 3-byte buffers live together need 6 bytes, but with
        // 4-byte alignment the second starts at 4 at the earliest, so the arena is 7. At capacity
        // 6 the search must prove that there is no layout (LOAD = 6 passes the quick check), fast.
        // A third buffer later in time makes sure the proof covers every independent part.
        AllocationProblem p;
        p.alignment = 4;
        p.buffers = {buffer("a", 0, 2, 3), buffer("b", 1, 3, 3), buffer("c", 5, 6, 6)};
        p.capacity = 6;
        PlacementOptions options;
        options.timeLimitSeconds = 30;
        PlacementResult r = placeExact(p, options);
        QCOMPARE(r.lowerBound, Bytes(6));
        QVERIFY(!r.fits);
        QVERIFY(r.provenOptimal);
        QVERIFY2(r.note.find("proven") != std::string::npos, r.note.c_str());
        QVERIFY(r.layout.offsets.empty());
        // One byte more and it fits: a at 0, b at 4 (or the other way round), c at 0.
        p.capacity = 7;
        r = placeExact(p, options);
        QVERIFY2(r.fits, r.note.c_str());
        VERIFY_LAYOUT(p, r);
        QCOMPARE(r.arena, Bytes(7));
    }

    void minimisesTheArenaWithoutACapacity() {
        // Without a capacity: the Figure 3 instance's best arena is LOAD = 30, proven.
        AllocationProblem p;
        p.buffers = {buffer("x", 0, 1, 10), buffer("y", 0, 3, 10), buffer("z", 1, 3, 20)};
        const PlacementResult r = placeExact(p, {});
        VERIFY_LAYOUT(p, r);
        QCOMPARE(r.arena, Bytes(30));
        QVERIFY(r.provenOptimal);
    }

    void alignmentIsRespected() {
        // Sizes that are not multiples of the alignment: offsets must still be multiples of 512.
        AllocationProblem p;
        p.alignment = 512;
        p.buffers = {buffer("a", 0, 2, 700), buffer("b", 1, 3, 100), buffer("c", 0, 3, 513)};
        const PlacementResult r = placeExact(p, {});
        VERIFY_LAYOUT(p, r);
        // All three live at tick 1, so they need three 512-aligned starts. The two lower ones
        // decide where the top one starts: b (100) at 0 and a (700) at 512 end at 1212, so c
        // (513) starts at 1536 and ends at 2049; every other order ends higher (c at 0 pushes
        // the next start to 1024 and the top to 2048 + 100 at least; a at 0 likewise). Best 2049,
        // far above LOAD (1313), so proving it takes the search, not the bound.
        QCOMPARE(r.lowerBound, Bytes(1313));
        QCOMPARE(r.arena, Bytes(2049));
        QVERIFY2(r.provenOptimal, r.note.c_str());
    }

    void allElevenMinimallocBenchmarksFitTheirCapacity() {
        // The headline: every instance within 1048576 bytes, each layout checked by the
        // verifier. All worker threads (the default), as a user runs it. The time limit is a
        // safety net for a loaded machine, not an assertion: a miss fails on `fits`.
        PlacementOptions options;
        options.timeLimitSeconds = 120;
        for (const char name : std::string("ABCDEFGHIJK")) {
            MinimallocCsv csv = readMinimallocCsv(kData + name + ".1048576.csv");
            csv.problem.capacity = 1048576;
            const PlacementResult r = placeExact(csv.problem, options);
            QVERIFY2(r.fits, qPrintable(QString("%1: %2").arg(name).arg(QString::fromStdString(r.note))));
            VERIFY_LAYOUT(csv.problem, r);
            QVERIFY(r.arena <= 1048576);
            QVERIFY(r.arena >= r.lowerBound);
            // LOAD = capacity on all but C, D and J: a layout that fits is then optimal.
            if (r.lowerBound == 1048576) QVERIFY(r.provenOptimal);
        }
    }

    void singleThreadedSearchIsDeterministic() {
        // One worker: the same layout every run (TWA and TAW round robin, no thread race).
        PlacementOptions options;
        options.timeLimitSeconds = 120;
        options.threads = 1;
        MinimallocCsv csv = readMinimallocCsv(kData + "D.1048576.csv");
        csv.problem.capacity = 1048576;
        const PlacementResult a = placeExact(csv.problem, options);
        const PlacementResult b = placeExact(csv.problem, options);
        QVERIFY2(a.fits, a.note.c_str());
        VERIFY_LAYOUT(csv.problem, a);
        QCOMPARE(a.layout, b.layout);
    }

    void tinyTimeLimitReturnsAValidLayoutNotProven() {
        // Minimising J's arena takes seconds (its optimum is unknown, ~4% above LOAD); with a
        // millisecond the search is cut inside its first dive or right after it, and what comes
        // back must still be a complete, valid layout, flagged as not proven optimal.
        MinimallocCsv csv = readMinimallocCsv(kData + "J.1048576.csv");
        csv.problem.capacity.reset();
        PlacementOptions options;
        options.timeLimitSeconds = 0.001;
        const PlacementResult r = placeExact(csv.problem, options);
        QVERIFY(r.fits);
        VERIFY_LAYOUT(csv.problem, r);
        QVERIFY(r.arena > r.lowerBound);
        QVERIFY(!r.provenOptimal);
        QVERIFY2(r.note.find("time limit") != std::string::npos, r.note.c_str());
        // No time at all: the greedy safety net alone.
        options.timeLimitSeconds = 0;
        const PlacementResult none = placeExact(csv.problem, options);
        VERIFY_LAYOUT(csv.problem, none);
        QVERIFY(!none.provenOptimal);
    }

    void timeLimitIsCheckedInsideTheSearchOnALargeProblem() {
        // 6,000 buffers (a few hundred live at once): one node of the search sorts thousands of
        // candidates, so a limit checked only between rounds would overrun by seconds. With a
        // 0.2 s limit the answer is a valid layout, not proven optimal. (The time itself is
        // printed, not asserted: CI machines are shared.)
        AllocationProblem p;
        p.alignment = 512;
        std::uint64_t state = 12345;
        auto next = [&](std::uint64_t bound) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<std::int64_t>((state >> 33) % bound);
        };
        for (int i = 0; i < 6000; ++i) {
            const std::int64_t lower = next(20000);
            p.buffers.push_back(buffer("b", lower, lower + 1 + next(1000), 512 * (1 + next(64))));
        }
        PlacementOptions options;
        options.timeLimitSeconds = 0.2;
        const PlacementResult r = placeExact(p, options);
        qInfo("6000 buffers, limit 0.2 s: %.3f s, arena/LOAD %.4f", r.seconds, double(r.arena) / double(r.lowerBound));
        QVERIFY(r.fits);
        VERIFY_LAYOUT(p, r);
        QVERIFY(r.arena >= r.lowerBound);
    }

    void minimallocLowerBoundsAreThePublishedOnes() {
        // README: LOAD equals the capacity except C 1039360, D 986112, J 989184.
        for (const char name : std::string("ABCDEFGHIJK")) {
            const MinimallocCsv csv = readMinimallocCsv(kData + name + ".1048576.csv");
            const Bytes expected = name == 'C' ? 1039360 : name == 'D' ? 986112 : name == 'J' ? 989184 : 1048576;
            QCOMPARE(loadLowerBound(csv.problem), expected);
        }
    }
};

QTEST_GUILESS_MAIN(TestPlacementExact)
#include "tst_placement_exact.moc"
