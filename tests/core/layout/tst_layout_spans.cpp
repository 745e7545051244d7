// Buffers live on several spans (a tensor a plan sends away and brings back, docs/plans.md):
// LOAD and the verifier count them only on their spans; greedy-by-size, llfb, best and roam put
// another buffer in the gap; exact and caching-allocator read the hull [lower, upper) and stay
// valid; malformed spans are reported; a profile's problem takes a plan's residency.
#include "core/layout/greedy_placer.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "layout_test_support.h"

#include "../../support/profile_builder.h"

#include <QtTest>

#include <random>
#include <set>

using namespace spillway;
using spillway::testing::problemOf;
using spillway::testing::ProfileBuilder;

namespace {
using Offsets = std::vector<Bytes>;

// b0 4 B live at ticks 0 and 3 only, b1 4 B at [1, 3), b2 1 B over [0, 4). LOAD 5: b0 and b1
// can share their bytes, and the hull [0, 4) of b0 would not let them.
AllocationProblem gapProblem() {
    AllocationProblem p = problemOf({{0, 4, 4}, {1, 3, 4}, {0, 4, 1}});
    p.buffers[0].spans = {{0, 1}, {3, 4}};
    return p;
}

bool valid(const AllocationProblem& p, const PlacementResult& r) {
    const auto v = verifyLayout(p, r.layout);
    if (!v.empty()) qWarning("%s: %s", r.method.c_str(), v.front().message.c_str());
    return v.empty() && r.arena == arenaBytes(p, r.layout);
}
}  // namespace

class TestLayoutSpans : public QObject {
    Q_OBJECT
private slots:
    void liveTogetherOnlyWhereSpansMeet() {
        const AllocationProblem p = gapProblem();
        QVERIFY(!liveAtSameTime(p.buffers[0], p.buffers[1]));
        QVERIFY(liveAtSameTime(p.buffers[0], p.buffers[2]));
        QVERIFY(liveAtSameTime(p.buffers[1], p.buffers[2]));
        QCOMPARE(liveTicks(p.buffers[0]), std::int64_t(2));
        QCOMPARE(liveTicks(p.buffers[1]), std::int64_t(2));
        Buffer late = p.buffers[1];
        late.upper = 4;  // [1, 4): meets b0's second span
        QVERIFY(liveAtSameTime(p.buffers[0], late));
        QVERIFY(liveAtSameTime(late, p.buffers[0]));
        QCOMPARE(loadLowerBound(p), Bytes(5));
        // Not whole-run: b0's hull is, its spans are not.
        QCOMPARE(wholeRunBuffers(p), (std::vector<std::int32_t>{2}));
    }

    void theVerifierChecksOnlyTheSpans() {
        AllocationProblem p = gapProblem();
        QVERIFY(verifyLayout(p, Layout{{1, 1, 0}}).empty());  // b0 and b1 share [1, 5)
        p.buffers[1].upper = 4;
        const auto v = verifyLayout(p, Layout{{1, 1, 0}});
        QCOMPARE(v.size(), std::size_t(1));
        QCOMPARE(v[0].tick, std::int64_t(3));
        QCOMPARE((std::set<size_t>(v[0].buffers.begin(), v[0].buffers.end())), (std::set<size_t>{0, 1}));
        QVERIFY2(QString::fromStdString(v[0].message).contains("'b0' (ticks [0, 4) in 2 spans"), v[0].message.c_str());
    }

    void malformedSpansAreReported() {
        AllocationProblem p = gapProblem();
        p.buffers[0].spans = {{0, 1}, {3, 5}};  // past upper
        auto v = verifyLayout(p, Layout{{1, 1, 0}});
        QCOMPARE(v.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(v[0].message).contains("its spans run from 0 to 5, not over its ticks [0, 4)"),
                 v[0].message.c_str());
        p.buffers[0].spans = {{0, 2}, {1, 4}};
        v = verifyLayout(p, Layout{{1, 1, 0}});
        QCOMPARE(v.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(v[0].message).contains("span 1 [1, 4) starts before span 0 ends (2)"),
                 v[0].message.c_str());
    }

    void greedyMethodsUseTheGap() {
        const AllocationProblem p = gapProblem();
        for (const char* method : {"greedy-by-size", "llfb", "best", "roam"}) {
            const PlacementResult r = place(method, p, {});
            QVERIFY2(valid(p, r), method);
            QVERIFY2(r.arena == 5, qPrintable(QStringLiteral("%1: %2").arg(method).arg(r.arena)));
            QCOMPARE(r.layout.offsets[0], r.layout.offsets[1]);
            QVERIFY(r.provenOptimal);
        }
        // greedy-by-size by hand: b0, b1 (4 B, 2 ticks each), b2. b0 -> 0, b1 -> 0 (not live
        // with b0), b2 -> 4.
        QCOMPARE(placeGreedyBySize(p, {}).layout.offsets, (Offsets{0, 0, 4}));
    }

    void hullMethodsStayValid() {
        const AllocationProblem p = gapProblem();
        for (const char* method : {"exact", "caching-allocator"}) {
            const PlacementResult r = place(method, p, {});
            // (caching-allocator's arena is its segments, not max(offset + size).)
            QVERIFY2(verifyLayout(p, r.layout).empty(), method);
            QVERIFY(r.arena >= 5);
        }
    }

    void enoughBytesEndsBestsSearch() {
        // 300 random buffers, where best's greedy orders stay above LOAD and its search (the exact
        // search, cheap at this size: docs/layout-heuristics.md) improves on them.
        std::mt19937_64 rng(7);
        AllocationProblem p;
        for (int i = 0; i < 300; ++i) {
            const auto lower = std::int64_t(rng() % 100);
            p.buffers.push_back({"b" + std::to_string(i), lower, lower + 1 + std::int64_t(rng() % 20),
                                 Bytes(1 + rng() % 1000), {}, {}});
        }
        PlacementOptions options;
        options.timeLimitSeconds = 0.2;
        options.threads = 2;
        const PlacementResult searched = placeBest(p, options);
        QVERIFY(valid(p, searched));
        QVERIFY2(searched.arena < placeGreedyBySize(p, options).arena, searched.note.c_str());
        options.enoughBytes = totalBufferBytes(p);  // any arena is enough
        const PlacementResult enough = placeBest(p, options);
        QVERIFY(valid(p, enough));
        QVERIFY2(QString::fromStdString(enough.note).contains("local search: 0 rounds"), enough.note.c_str());
    }

    void aProfileProblemTakesAResidency() {
        // k0 writes A, k1 writes X, k2 reads A: A away at k1 in some plan.
        const Profile profile = ProfileBuilder("three")
                                    .tensor(1, "A", 1000, TensorKind::Activation, false)
                                    .tensor(2, "X", 1000, TensorKind::Activation, false)
                                    .kernel(10, "k0", KernelPhase::Forward, 10, {}, {1})
                                    .kernel(11, "k1", KernelPhase::Forward, 10, {}, {2})
                                    .kernel(12, "k2", KernelPhase::Forward, 10, {1}, {})
                                    .build();
        const AllocationProblem lifetimes = allocationProblemFromProfile(profile, {});
        QCOMPARE(lifetimes.buffers[0].lower, std::int64_t(0));
        QCOMPARE(lifetimes.buffers[0].upper, std::int64_t(3));
        const AllocationProblem away = allocationProblemFromProfile(profile, {}, {{{0, 1}, {2, 3}}, {}});
        QCOMPARE(away.buffers[0].lower, std::int64_t(0));
        QCOMPARE(away.buffers[0].upper, std::int64_t(3));
        QCOMPARE(away.buffers[0].spans, (std::vector<TickSpan>{{0, 1}, {2, 3}}));
        QVERIFY(away.buffers[1] == lifetimes.buffers[1]);  // no residency: its lifetime
        QCOMPARE(loadLowerBound(away), Bytes(1024));
        QCOMPARE(loadLowerBound(lifetimes), Bytes(2048));
        // One span is the buffer's interval.
        const AllocationProblem one = allocationProblemFromProfile(profile, {}, {{{0, 2}}, {}});
        QCOMPARE(one.buffers[0].upper, std::int64_t(2));
        QVERIFY(one.buffers[0].spans.empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocationProblemFromProfile(profile, {}, {{{2, 3}, {0, 1}}, {}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocationProblemFromProfile(profile, {}, {{{0, 4}}, {}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocationProblemFromProfile(profile, {}, {{{0, 1}}}));
    }
};

QTEST_MAIN(TestLayoutSpans)
#include "tst_layout_spans.moc"
