// The Overview tab's text comes from summarizeProfile: model, counts, theoretical peak and its
// kernel, per-phase time and the largest tensors; the import notes (iterations, kind rules,
// warnings) from the profile's notes.
#include "../core/analysis/stacked_profile.h"
#include "app_fixtures.h"
#include "views/import_notes_html.h"
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

    // What the footprint adds up, the iterations, the kind rules with their shares, every
    // warning note and the unclassified share over kUnclassifiedWarning, the other notes.
    void showsTheImportNotes() {
        using namespace spillway;
        auto profile = std::make_shared<const Profile>(parseNativeProfile(testing::stackedProfileWithNotesJson(), "notes"));
        spillway::views::ProfileOverviewWidget widget;
        widget.setViewData(spillway::views::makeProfileViewData(profile));
        const QString text = widget.summaryText();
        QVERIFY2(text.contains("all 5 tensors of iteration 2 (3 found) added up, each once, as if none were freed; "
                               "persistent 7 B"),
                 qPrintable(text));
        QVERIFY(text.contains("3 found; showing iteration 2"));
        QVERIFY(text.contains("How the tensor kinds were decided"));
        QVERIFY(text.contains("persistent-with-gradient\nweight: 1 tensors, 7 bytes"));
        QVERIFY(text.contains("unclassified\n40.2 % of the tensor bytes"));
        QVERIFY(text.contains("Warning (caching_allocator): the allocator's blocks hide the tensors"));
        QVERIFY(text.contains("Warning (unclassified_kinds): 40 % of the tensor bytes were classified by no evidence"));
        QVERIFY(text.contains("iterations.rule\nsizes repeat"));
        QCOMPARE(spillway::views::importWarningCount(profile->metadata.notes), 2);
        // The importer's own warning about the share replaces the one made from the share.
        auto notes = profile->metadata.notes;
        notes["warning.unclassified_kinds"] = "40% unclassified";
        QCOMPARE(spillway::views::importWarningCount(notes), 2);
        notes["kind_rule.unclassified_share"] = "0.1000";
        notes.erase("warning.unclassified_kinds");
        QCOMPARE(spillway::views::importWarningCount(notes), 1);

        // Without notes, none of it.
        widget.setViewData(spillway::test::loadTinyMlp());
        const QString plain = widget.summaryText();
        QVERIFY(!plain.contains("Iterations"));
        QVERIFY(!plain.contains("Warning"));
        QVERIFY(!plain.contains("How the tensor kinds"));
        QVERIFY(plain.contains("all 15 tensors added up, each once, as if none were freed"));
    }
};

QTEST_MAIN(TestProfileOverviewWidget)
#include "tst_profile_overview_widget.moc"
