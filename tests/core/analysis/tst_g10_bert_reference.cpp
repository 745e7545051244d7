// Our liveness and inactive intervals against G10's own analysis of BERT-Base at batch 256:
// every tensor's birth, death, global flag, size and every inactive interval with its
// estimated time, as G10 printed them in derived/BERT_Base_256/interval.config.
#include "core/analysis/g10_interval_config.h"
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"

#include <QtTest>

#include <cmath>
#include <unordered_map>

using namespace spillway;

namespace {
const std::string kWorkload = SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256";

// G10 prints "Estimated Time" with 6 significant digits (half a unit in the last digit is at
// most 5e-6 of the value) from kernel times in cycles at 1.2 GHz truncated to whole cycles,
// while our profile has the measured nanoseconds: up to 1 cycle (0.83 ns) plus 1 ns of rounding
// of the measurement per kernel in the interval.
double tolerance(const G10Interval& theirs, std::int64_t kernelCount) {
    return 5e-6 * std::abs(theirs.estimatedTimeUs) + 0.002 * static_cast<double>(kernelCount) + 1e-9;
}
}  // namespace

class TestG10BertReference : public QObject {
    Q_OBJECT
private slots:
    void matchesG10IntervalConfig() {
        Profile profile;
        try {
            profile = loadProfile(kWorkload);
        } catch (const ImportError& e) {
            // The G10 importer is developed in parallel; until it lands this is all we can do.
            if (e.message().find("not implemented") != std::string::npos) QSKIP(e.what());
            throw;
        }
        const auto theirs = readG10IntervalConfig(kWorkload + "/interval.config");
        const auto liveness = computeLiveness(profile);
        const auto intervals = computeInactiveIntervals(profile, liveness);
        const auto ours = toG10Conventions(profile, liveness, intervals);

        // G10 numbers tensors "tensorN"; the importer keeps N as the id.
        std::unordered_map<std::int64_t, size_t> ourByTensor;
        for (size_t t = 0; t < ours.size(); ++t) ourByTensor.emplace(ours[t].tensor, t);
        QCOMPARE(theirs.size(), profile.tensors.size());
        QCOMPARE(theirs.size(), size_t(1463));

        size_t intervalCount = 0, wrapping = 0;
        double worstError = 0;
        for (const auto& g : theirs) {
            const auto where = ourByTensor.find(g.tensor);
            QVERIFY2(where != ourByTensor.end(), qPrintable(QStringLiteral("tensor%1 missing").arg(g.tensor)));
            const auto& o = ours[where->second];
            const auto label = QStringLiteral("tensor%1").arg(g.tensor).toStdString();
            QVERIFY2(o.global == g.global, label.c_str());
            QVERIFY2(o.bytes == g.bytes, label.c_str());
            QVERIFY2(o.birth == g.birth, label.c_str());
            QVERIFY2(o.death == g.death, label.c_str());
            QVERIFY2(o.intervals.size() == g.intervals.size(), label.c_str());
            const auto ourIntervals = intervals.ofTensor(where->second);
            size_t skipped = 0;  // ours that toG10Conventions dropped (none expected here)
            for (size_t i = 0; i < g.intervals.size(); ++i) {
                const auto& gi = g.intervals[i];
                const auto& oi = o.intervals[i];
                QVERIFY2(oi.start == gi.start && oi.end == gi.end, label.c_str());
                const auto& raw = ourIntervals[i + skipped];
                const double error = std::abs(oi.estimatedTimeUs - gi.estimatedTimeUs);
                worstError = std::max(worstError, error / std::max(gi.estimatedTimeUs, 1e-9));
                QVERIFY2(error <= tolerance(gi, raw.kernelCount),
                         qPrintable(QStringLiteral("%1 interval %2: ours %3 us, G10 %4 us")
                                        .arg(QString::fromStdString(label)).arg(i)
                                        .arg(oi.estimatedTimeUs, 0, 'f', 3).arg(gi.estimatedTimeUs, 0, 'f', 3)));
                ++intervalCount;
                wrapping += raw.wraps ? 1 : 0;
            }
        }
        // Guard against a vacuous pass: BERT has thousands of intervals, weights wrap.
        QVERIFY(intervalCount > 1000);
        QVERIFY(wrapping > 0);
        qInfo("compared %zu intervals (%zu wrap around), worst relative time error %.2e",
              intervalCount, wrapping, worstError);
    }
};

QTEST_GUILESS_MAIN(TestG10BertReference)
#include "tst_g10_bert_reference.moc"
