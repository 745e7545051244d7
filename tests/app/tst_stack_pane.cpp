// The Stack pane on the hand-made stacked profile (tests/core/analysis/stacked_profile.h): it
// follows the ViewLink's selected tensor, lists the frames innermost first with the first one
// outside torch marked, says when there is no stack, and copies the stack as text.
#include "../core/analysis/stacked_profile.h"
#include "views/stack_pane.h"
#include "views/view_link.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QTreeWidget>
#include <QtTest>

using spillway::views::StackPane;
using spillway::views::ViewLink;

namespace {
std::shared_ptr<const spillway::views::ProfileViewData> stackedData() {
    return spillway::views::makeProfileViewData(std::make_shared<const spillway::Profile>(spillway::testing::stackedProfile()));
}
}  // namespace

class TestStackPane : public QObject {
    Q_OBJECT
private slots:
    void followsTheSelectedTensor() {
        ViewLink link;
        StackPane pane(&link);
        QVERIFY(pane.headerText().contains("No profile open"));
        pane.setViewData(stackedData());
        QCOMPARE(pane.frameCount(), 0);
        QVERIFY(pane.headerText().contains("Select a tensor"));

        // a: L M U M MAIN, allocated at 1 us and freed at 5 us, used by kernels 0 and 1.
        link.selectTensor(0);
        QCOMPARE(pane.frameCount(), 5);
        QCOMPARE(pane.frameText(0), QString("forward  torch/nn/modules/linear.py:134"));
        QCOMPARE(pane.frameText(2), QString("step  /home/me/train.py:10"));
        QCOMPARE(pane.frameText(4), QString("main  /home/me/train.py:30"));
        QCOMPARE(pane.userFrameRow(), 2);
        QCOMPARE(pane.frameList()->topLevelItem(2)->text(StackPane::Marker), QString("▶"));
        QVERIFY(pane.frameList()->topLevelItem(2)->font(StackPane::Function).bold());
        QVERIFY(!pane.frameList()->topLevelItem(1)->font(StackPane::Function).bold());
        QCOMPARE(pane.frameList()->topLevelItem(1)->text(StackPane::Marker), QString("1"));
        const QString header = pane.headerText();
        QVERIFY2(header.contains("a (id 1)"), qPrintable(header));
        QVERIFY(header.contains("activation · 1000 B (1000 bytes)"));
        QVERIFY2(header.contains("allocated at 1.000 us, freed at 5.000 us (lived 4.000 us)"), qPrintable(header));
        QVERIFY(header.contains("needed from kernel #0 to #1"));
        QVERIFY(header.contains("5 frames, innermost first"));
        QVERIFY(header.contains("first frame outside torch (frame 2)"));
        QVERIFY(pane.frameList()->topLevelItem(0)->toolTip(StackPane::Location).contains("site-packages/torch/nn/modules/linear.py"));

        // c: its innermost frame is the user's.
        link.selectTensor(2);
        QCOMPARE(pane.frameCount(), 2);
        QCOMPARE(pane.userFrameRow(), 0);

        // w has no stack.
        link.selectTensor(3);
        QCOMPARE(pane.frameCount(), 0);
        QCOMPARE(pane.userFrameRow(), -1);
        QVERIFY(pane.headerText().contains("No stack recorded"));
        QVERIFY(pane.headerText().contains("w (id 4)"));

        link.selectTensor(-1);
        QCOMPARE(pane.frameCount(), 0);
        // A new profile keeps the link's selection.
        link.selectTensor(4);
        pane.setViewData(stackedData());
        QCOMPARE(pane.frameCount(), 3);
        QCOMPARE(pane.userFrameRow(), 2);
        pane.setViewData(nullptr);
        QCOMPARE(pane.frameCount(), 0);
    }

    void copiesTheRecordedStack() {
        ViewLink link;
        StackPane pane(&link);
        pane.setViewData(stackedData());
        link.selectTensor(1);  // b: R M U MAIN
        const QString expected = QStringList{spillway::testing::kFrameR, spillway::testing::kFrameM,
                                             spillway::testing::kFrameU, spillway::testing::kFrameMain}
                                     .join('\n');
        QCOMPARE(pane.stackText(), expected);
        auto* copy = pane.frameList()->findChild<QAction*>("copyStackAction");
        QVERIFY(copy);
        copy->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), expected);
    }
};

QTEST_MAIN(TestStackPane)
#include "tst_stack_pane.moc"
