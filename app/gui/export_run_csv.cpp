#include "app/gui/export_run_csv.h"

#include "app/gui/save_bytes.h"
#include "views/format_units.h"

#include <QStringList>

namespace spillway::app {

namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes inside.
QString csvField(const QString& text) {
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r')) return text;
    QString quoted = text;
    quoted.replace('"', "\"\"");
    return '"' + quoted + '"';
}

}  // namespace

QString totalsCsvPathFor(const QString& kernelsCsvPath) {
    if (kernelsCsvPath.endsWith(".csv", Qt::CaseInsensitive))
        return kernelsCsvPath.left(kernelsCsvPath.size() - 4) + ".totals.csv";
    return kernelsCsvPath + ".totals.csv";
}

QString kernelsCsv(const views::RunViewData& run) {
    const auto& r = run.result;
    const Profile* profile = run.profile ? run.profile->profile.get() : nullptr;
    QString out = QStringLiteral(
        "index,position,kernel_id,name,start_ns,end_ns,compute_ns,fault_stall_ns,oversub_stall_ns,"
        "late_prefetch_stall_ns,nvlink_stall_ns,overlap_ns,faulted_bytes\n");
    for (size_t i = 0; i < r.kernels.size(); ++i) {
        const KernelTiming& k = r.kernels[i];
        // The result lists kernels in run order; the plan's order maps that back to the profile.
        const auto pos = i < run.plan.order.size() ? run.plan.order[i] : static_cast<std::int64_t>(i);
        const bool known = profile && pos >= 0 && pos < static_cast<std::int64_t>(profile->kernels.size());
        const QString id = known ? QString::number(profile->kernels[static_cast<size_t>(pos)].id) : QString();
        const QString name = known ? views::toQString(profile->kernels[static_cast<size_t>(pos)].name) : QString();
        QStringList row{QString::number(i),
                        QString::number(pos),
                        id,
                        csvField(name),
                        QString::number(k.start - run.iterationStart),
                        QString::number(k.end - run.iterationStart),
                        QString::number(k.compute),
                        QString::number(k.faultStall),
                        QString::number(k.oversubStall),
                        QString::number(k.latePrefetchStall),
                        QString::number(k.nvlinkStall),
                        QString::number(k.overlap),
                        QString::number(k.faultedBytes)};
        out += row.join(',') + '\n';
    }
    return out;
}

QString totalsCsv(const views::RunViewData& run) {
    const auto& r = run.result;
    QString out = QStringLiteral("quantity,value,unit\n");
    auto row = [&](const QString& quantity, qint64 value, const char* unit) {
        out += csvField(quantity) + ',' + QString::number(value) + ',' + QString::fromLatin1(unit) + '\n';
    };
    row(QStringLiteral("iteration_time"), r.iterationTime, "ns");
    row(QStringLiteral("ideal_time"), r.idealTime, "ns");
    row(QStringLiteral("compute"), r.totals.compute, "ns");
    row(QStringLiteral("fault_stall"), r.totals.faultStall, "ns");
    row(QStringLiteral("oversub_stall"), r.totals.oversubStall, "ns");
    row(QStringLiteral("late_prefetch_stall"), r.totals.latePrefetchStall, "ns");
    row(QStringLiteral("nvlink_stall"), r.totals.nvlinkStall, "ns");
    row(QStringLiteral("overlap"), r.totals.overlap, "ns");
    for (int l = 0; l < kLinkCount; ++l)
        row(QStringLiteral("traffic_%1").arg(views::toQString(toString(static_cast<LinkId>(l)))), r.traffic[l], "bytes");
    row(QStringLiteral("peak_gpu"), r.peakGpuBytes, "bytes");
    row(QStringLiteral("discard_saved"), r.discardSavedBytes, "bytes");
    row(QStringLiteral("fault_batches"), r.faultBatches, "count");
    row(QStringLiteral("kernels"), static_cast<qint64>(r.kernels.size()), "count");
    return out;
}

QString exportRunCsv(const views::RunViewData& run, const QString& kernelsCsvPath) {
    if (QString error = saveBytes(kernelsCsvPath, kernelsCsv(run).toUtf8()); !error.isEmpty()) return error;
    return saveBytes(totalsCsvPathFor(kernelsCsvPath), totalsCsv(run).toUtf8());
}

}  // namespace spillway::app
