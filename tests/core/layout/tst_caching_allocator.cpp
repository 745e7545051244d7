// The caching-allocator model on tiny sequences worked out by hand from PyTorch's rules: 512-byte
// rounding, the small pool's 2 MiB segments, the large pool's 20 MiB and rounded segments,
// best-fit reuse of a freed block, splitting (and not splitting a <= 1 MiB large remainder),
// merging of freed neighbours.
#include "core/layout/layout_verifier.h"
#include "core/layout/placement.h"
#include "layout_test_support.h"

#include <QtTest>

using namespace spillway;
using spillway::testing::problemOf;

namespace {
using Offsets = std::vector<Bytes>;
}

class TestCachingAllocator : public QObject {
    Q_OBJECT
private slots:
    void smallPoolRoundsAndPacks() {
        // a: 1000 B -> 1024, a new 2 MiB small segment, split: a at 0, free [1024, 2 MiB).
        // b: 100 B -> 512, best fit in that remainder: 1024. c: 1 MiB exactly is still small -> 1536.
        const auto p = problemOf({{0, 3, 1000}, {1, 3, 100}, {2, 3, kMiB}}, 512);
        const auto r = placeCachingAllocator(p, {});
        QCOMPARE(r.layout.offsets, (Offsets{0, 1024, 1536}));
        QCOMPARE(r.arena, 2 * kMiB);  // reserved, though the buffers reach only 1536 + 1 MiB
        QVERIFY(verifyLayout(p, r.layout).empty());
    }

    void largePoolSegmentsSplitsAndBestFit() {
        // t0  a 1000 B small -> segment 0 [0, 2 MiB), a at 0.
        // t0  c 5 MiB -> a 20 MiB large segment at 2 MiB; c at 2 MiB, free [7, 22) MiB.
        // t1  c freed: merges with [7, 22) -> [2, 22) MiB free.
        // t1  d 12 MiB -> best fit [2, 22): d at 2 MiB, remainder 8 MiB > 1 MiB split: [14, 22) free.
        // t1  e 7.5 MiB -> [14, 22): remainder 0.5 MiB <= 1 MiB, not split, e takes the whole block.
        // t2  f 29 MiB + 1 B -> rounded to 512 B, no free block: a new segment rounded up to 2 MiB,
        //     30 MiB at 22 MiB.
        // t2  g 3 MiB -> nothing free in the large pool: another 20 MiB segment at 52 MiB; g at 52,
        //     free [55, 72) MiB.
        // t3  e freed: [14, 22) free (8 MiB). h 6 MiB: best fit is the 8 MiB block, not the
        //     17 MiB one on top -> h at 14 MiB.
        // Reserved: 2 + 20 + 30 + 20 = 72 MiB.
        const auto p = problemOf({{0, 5, 1000},
                                  {0, 1, 5 * kMiB},
                                  {1, 5, 12 * kMiB},
                                  {1, 3, 7 * kMiB + kMiB / 2},
                                  {2, 5, 29 * kMiB + 1},
                                  {2, 5, 3 * kMiB},
                                  {3, 5, 6 * kMiB}},
                                 512);
        const auto r = placeCachingAllocator(p, {});
        QCOMPARE(r.layout.offsets,
                 (Offsets{0, 2 * kMiB, 2 * kMiB, 14 * kMiB, 22 * kMiB, 52 * kMiB, 14 * kMiB}));
        QCOMPARE(r.arena, 72 * kMiB);
        QVERIFY(r.arena > r.lowerBound);
        QVERIFY(verifyLayout(p, r.layout).empty());
    }

    void freesBeforeAllocationsAtOneTick() {
        // x [0,1) 12 MiB takes a 12 MiB segment; y [1,2) 12 MiB starts when x ends: x's block is
        // free again at tick 1, so y reuses it and nothing more is reserved.
        const auto p = problemOf({{0, 1, 12 * kMiB}, {1, 2, 12 * kMiB}}, 512);
        const auto r = placeCachingAllocator(p, {});
        QCOMPARE(r.layout.offsets, (Offsets{0, 0}));
        QCOMPARE(r.arena, 12 * kMiB);
    }

    void capacityAndAlignment() {
        auto p = problemOf({{0, 1, 100}}, 512);
        p.capacity = kMiB;  // a small request still reserves a 2 MiB segment
        QVERIFY(!placeCachingAllocator(p, {}).fits);
        p.capacity = 2 * kMiB;
        QVERIFY(placeCachingAllocator(p, {}).fits);
        p.alignment = 1024;  // not a divisor of 512-byte blocks
        const auto r = placeCachingAllocator(p, {});
        QVERIFY(!r.fits);
        QVERIFY(r.note.find("alignment") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCachingAllocator)
#include "tst_caching_allocator.moc"
