// The Overview tab's text comes from summarizeProfile: model, counts, theoretical peak and its
// kernel, per-phase time and the largest tensors.
#include "app_fixtures.h"
#include "views/profile_overview_widget.h"

#include <QtTest>

class TestProfileOverviewWidget : public QObject {
    Q_OBJECT
private slots:
    void summarisesTheProfile() {
        spillway::views::ProfileOverviewWidget widget;
        QVERIFY(widget.summaryText().contains("No profile open"));
        widget.setViewData(spillway::test::loadTinyMlp());
        const QString text = widget.summaryText();
        QVERIFY2(text.contains("tiny-mlp"), qPrintable(text));
        QVERIFY(text.contains("batch 32"));
        QVERIFY(text.contains("hand-written"));
        // Peak: persistent 516 KiB + batch.images, fc1.out.grad, fc1.weight.grad, fc2.weight.grad
        // and 8 KiB of workspace
        // at kernel #8.
        QVERIFY2(text.contains("862.00 KiB at kernel #8 sgemm_128x64_tn_wgrad (id 108, backward)"), qPrintable(text));
        QVERIFY2(text.contains("backward\n5\n66.700 us\n50.3 %"), qPrintable(text));
        QVERIFY(text.contains("fc1.weight.adam_m"));
        QVERIFY(!text.contains("validation problem"));
        QCOMPARE(widget.chartPointCount(), 10);

        widget.setViewData(nullptr);
        QCOMPARE(widget.chartPointCount(), 0);
        QVERIFY(widget.summaryText().contains("No profile open"));
    }
};

QTEST_MAIN(TestProfileOverviewWidget)
#include "tst_profile_overview_widget.moc"
