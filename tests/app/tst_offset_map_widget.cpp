// The offset map draws each buffer where the layout put it (address up, time across), leaves
// free space blank, marks the step with the most live bytes, reports fragmentation against the
// lower bound, and links clicks to the tensor selection. The case is the ROAM paper's Figure 3
// idea: three buffers whose total fits, laid out once badly and once well.
#include "views/offset_map_widget.h"

#include <QtTest>

using namespace spillway;
using namespace spillway::views;

namespace {

// A lives [0, 2) 40 bytes, B [1, 4) 20 bytes, C [2, 4) 40 bytes. At most 60 bytes live at once
// (ticks 1 and 2-3), so the lower bound is 60.
AllocationProblem figure3() {
    AllocationProblem p;
    p.buffers = {{"A", 0, 2, 40, {10, -1}}, {"B", 1, 4, 20, {11, -1}}, {"C", 2, 4, 40, {12, -1}}};
    return p;
}

std::shared_ptr<const PlacedArena> placed(const char* name, std::vector<Bytes> offsets) {
    return std::make_shared<const PlacedArena>(PlacedArena{name, figure3(), Layout{std::move(offsets)}});
}

}  // namespace

class TestOffsetMapWidget : public QObject {
    Q_OBJECT
private slots:
    void drawsBuffersWhereTheLayoutPutThem() {
        ViewLink link;
        OffsetMapWidget w(&link);
        w.resize(800, 400);
        // Bad: B on top of A (40), then C cannot go below B: C at 60 -> arena 100.
        // Good: B at the bottom (0), A and C above it at 20 -> arena 60, the lower bound.
        w.setArenas({placed("bad", {0, 40, 60}), placed("good", {20, 0, 20})});
        QCOMPARE(w.panelCount(), 2);
        QCOMPARE(w.fragmentation(0), 0.4);  // (100 - 60) / 100
        QCOMPARE(w.fragmentation(1), 0.0);
        QCOMPARE(w.peakTick(0), std::int64_t(1));  // the first tick where 60 bytes are live
        const QImage image = w.grab().toImage();
        // Centre of C in the bad layout: tick 3, offset 80 -> a buffer colour, not the base.
        const QPoint c = w.pixelOf(0, 3, 80);
        QCOMPARE(w.bufferAt(0, c), std::optional<size_t>(2));
        QVERIFY(image.pixelColor(c) != w.palette().base().color());
        // Free space under C at tick 3 in the bad layout (offsets 0-20 are free after A ends).
        const QPoint freeSpot = w.pixelOf(0, 3, 10);
        QCOMPARE(w.bufferAt(0, freeSpot), std::optional<size_t>());
        QCOMPARE(image.pixelColor(freeSpot), w.palette().base().color());
    }

    void axesHaveTicksWithUnitsAndTheLegendSaysWhatColoursMean() {
        ViewLink link;
        OffsetMapWidget w(&link);
        w.resize(800, 400);
        QVERIFY(w.addressTicks().empty());  // nothing planned: no axis to draw
        w.setArenas({placed("good", {20, 0, 20}), placed("bad", {20, 20, 20})});
        const auto ticks = w.addressTicks();
        QVERIFY(ticks.size() >= 2);
        QCOMPARE(ticks.front(), 0.0);
        QVERIFY(!w.tickTicks(0).empty() && !w.tickTicks(1).empty());
        QCOMPARE(w.addressAxisTitle(), QString("arena offset"));
        QVERIFY(w.tickAxisTitle().contains("run order"));
        // The panels leave room for the address labels on the left and the ticks below.
        QVERIFY(w.panelRect(0).left() >= 60);
        QVERIFY(w.panelRect(0).bottom() < w.height() - 30);
    }

    void clicksSelectTensorsAndTheSelectionIsOutlined() {
        ViewLink link;
        OffsetMapWidget w(&link);
        w.resize(600, 400);
        w.setArenas({placed("good", {20, 0, 20})});
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::mouseClick(&w, Qt::LeftButton, {}, w.pixelOf(0, 2, 10));  // B
        QCOMPARE(link.selectedTensor(), std::int64_t(11));
        QVERIFY(w.toolTipAt(w.pixelOf(0, 2, 10)).contains("B"));
        const QImage image = w.grab().toImage();
        // The outline runs just outside B's rectangle, along its top edge at offset 20.
        const QPoint top = w.pixelOf(0, 2, 20);
        // Black around white (tier_colours.h), so it shows over any buffer's colour.
        bool black = false, whiteBetween = false;
        for (int dy = -4; dy <= 4; ++dy) {
            const QColor px = image.pixelColor(top.x(), top.y() + dy);
            const QColor above = image.pixelColor(top.x(), top.y() + dy - 1);
            const QColor below = image.pixelColor(top.x(), top.y() + dy + 1);
            auto isBlack = [](QColor c) { return c.red() < 40 && c.green() < 40 && c.blue() < 40; };
            black = black || isBlack(px);
            whiteBetween = whiteBetween || (px == QColor(Qt::white) && isBlack(above) && isBlack(below));
        }
        QVERIFY(black);
        QVERIFY(whiteBetween);
        QTest::mouseClick(&w, Qt::LeftButton, {}, w.pixelOf(0, 0, 10));  // free space below A
        QCOMPARE(link.selectedTensor(), std::int64_t(-1));
    }
};

QTEST_MAIN(TestOffsetMapWidget)
#include "tst_offset_map_widget.moc"
