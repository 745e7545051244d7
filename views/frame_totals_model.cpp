#include "views/frame_totals_model.h"

#include "views/format_units.h"

#include <QBrush>
#include <QPalette>

namespace spillway::views {

FrameTotalsModel::FrameTotalsModel(QObject* parent)
    : ProfileTableModel(
          {
              {QT_TR_NOOP("Function"), QT_TR_NOOP("The function of the stack frame")},
              {QT_TR_NOOP("Inclusive"), QT_TR_NOOP("Bytes of the tensors whose allocating stack holds this frame, "
                                                   "each tensor once")},
              {QT_TR_NOOP("Self"), QT_TR_NOOP("Bytes of the tensors allocated directly here (the innermost frame)")},
              {QT_TR_NOOP("Tensors"), QT_TR_NOOP("How many tensors' stacks hold this frame")},
              {QT_TR_NOOP("Peak live"), QT_TR_NOOP("The most of the inclusive bytes live during one kernel "
                                                   "(theoretical liveness)")},
              {QT_TR_NOOP("Location"), QT_TR_NOOP("File and line of the frame (from the package on)")},
          },
          parent) {}

int FrameTotalsModel::rowsIn(const ProfileViewData& data) const {
    return static_cast<int>(data.frameTotals.frames.size());
}

const FrameTotal* FrameTotalsModel::frameAt(int row) const {
    if (!data_ || row < 0 || row >= rowsIn(*data_)) return nullptr;
    return &data_->frameTotals.frames[static_cast<size_t>(row)];
}

QVariant FrameTotalsModel::sortValue(int row, int column) const {
    const FrameTotal& f = data_->frameTotals.frames[static_cast<size_t>(row)];
    const StackFrameParts parts = splitStackFrame(f.frame);
    switch (column) {
    case Function: return toQString(parts.function);
    case Location:
        return parts.line < 0 ? QString() : QStringLiteral("%1:%2").arg(toQString(shortFrameFile(parts.file))).arg(parts.line);
    case Inclusive: return qint64(f.inclusiveBytes);
    case Self: return qint64(f.selfBytes);
    case Tensors: return qint64(f.tensors);
    case PeakLive: return qint64(f.peakLiveBytes);
    }
    return {};
}

QVariant FrameTotalsModel::displayValue(int row, int column) const {
    const FrameTotal& f = data_->frameTotals.frames[static_cast<size_t>(row)];
    switch (column) {
    case Inclusive: return formatBytes(f.inclusiveBytes);
    case Self: return formatBytes(f.selfBytes);
    case PeakLive: return formatBytes(f.peakLiveBytes);
    default: return sortValue(row, column);
    }
}

QVariant FrameTotalsModel::data(const QModelIndex& index, int role) const {
    // Frames inside torch in the disabled text colour: the eye goes to the user's own frames.
    if (role == Qt::ForegroundRole) {
        const FrameTotal* f = index.isValid() && !index.parent().isValid() ? frameAt(index.row()) : nullptr;
        if (f && f->torch) return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    }
    return ProfileTableModel::data(index, role);
}

QString FrameTotalsModel::toolTip(int row) const {
    const FrameTotal& f = data_->frameTotals.frames[static_cast<size_t>(row)];
    const auto& totals = data_->frameTotals;
    const double share = totals.bytesWithStack > 0 ? 100.0 * double(f.inclusiveBytes) / double(totals.bytesWithStack) : 0.0;
    QString tip = tr("<b>%1</b>%2<br>inclusive %3 bytes (%4, %5 % of the stacked bytes) in %6 tensors<br>"
                     "self %7 bytes in %8 tensors")
                      .arg(toQString(f.frame).toHtmlEscaped(), f.torch ? tr(" <i>(inside torch)</i>") : QString())
                      .arg(f.inclusiveBytes)
                      .arg(formatBytes(f.inclusiveBytes))
                      .arg(share, 0, 'f', 1)
                      .arg(f.tensors)
                      .arg(f.selfBytes)
                      .arg(f.selfTensors);
    if (f.peakKernel >= 0) tip += tr("<br>peak live %1 at kernel #%2").arg(formatBytes(f.peakLiveBytes)).arg(f.peakKernel);
    if (f.largestTensor >= 0) {
        const auto& t = data_->profile->tensors[static_cast<size_t>(f.largestTensor)];
        tip += tr("<br>largest: %1 (%2); click to select it").arg(toQString(t.name).toHtmlEscaped(), formatBytes(t.bytes));
    }
    return tip;
}

bool FrameTotalsModel::isRightAligned(int column) const {
    return column == Inclusive || column == Self || column == Tensors || column == PeakLive;
}

}  // namespace spillway::views
