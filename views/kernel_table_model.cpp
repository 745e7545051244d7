#include "views/kernel_table_model.h"

#include "views/format_units.h"

namespace spillway::views {

KernelTableModel::KernelTableModel(QObject* parent)
    : ProfileTableModel(
          {
              {QT_TR_NOOP("#"), QT_TR_NOOP("Position in program (captured) order")},
              {QT_TR_NOOP("Id"), QT_TR_NOOP("Kernel id in the profile")},
              {QT_TR_NOOP("Name"), QT_TR_NOOP("Kernel name")},
              {QT_TR_NOOP("Operator"), QT_TR_NOOP("Framework operator the kernel belongs to")},
              {QT_TR_NOOP("Phase"), QT_TR_NOOP("Training phase")},
              {QT_TR_NOOP("Duration"), QT_TR_NOOP("Run time with every tensor resident in GPU memory")},
              {QT_TR_NOOP("Inputs"), QT_TR_NOOP("Number of tensors read")},
              {QT_TR_NOOP("Outputs"), QT_TR_NOOP("Number of tensors written")},
              {QT_TR_NOOP("Input bytes"), QT_TR_NOOP("Total size of the tensors read")},
              {QT_TR_NOOP("Output bytes"), QT_TR_NOOP("Total size of the tensors written")},
              {QT_TR_NOOP("Workspace"), QT_TR_NOOP("Scratch memory live only while the kernel runs")},
          },
          parent) {}

int KernelTableModel::rowsIn(const ProfileViewData& data) const {
    return static_cast<int>(data.profile->kernels.size());
}

QVariant KernelTableModel::sortValue(int row, int column) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    switch (column) {
    case Position: return qint64(row);
    case Id: return qint64(k.id);
    case Name: return toQString(k.name);
    case Op: return toQString(k.op);
    case Phase: return toQString(toString(k.phase));
    case Duration: return qint64(k.duration);
    case InputCount: return qint64(k.inputs.size());
    case OutputCount: return qint64(k.outputs.size());
    case InputBytes: return qint64(data_->kernelInputBytes[static_cast<size_t>(row)]);
    case OutputBytes: return qint64(data_->kernelOutputBytes[static_cast<size_t>(row)]);
    case Workspace: return qint64(k.workspaceBytes);
    }
    return {};
}

QVariant KernelTableModel::displayValue(int row, int column) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    switch (column) {
    case Duration: return formatDuration(k.duration);
    case InputBytes: return formatBytes(data_->kernelInputBytes[static_cast<size_t>(row)]);
    case OutputBytes: return formatBytes(data_->kernelOutputBytes[static_cast<size_t>(row)]);
    case Workspace: return k.workspaceBytes ? formatBytes(k.workspaceBytes) : QString();
    default: return sortValue(row, column);
    }
}

QString KernelTableModel::toolTip(int row) const {
    const auto& k = data_->profile->kernels[static_cast<size_t>(row)];
    const auto r = static_cast<size_t>(row);
    return tr("<b>%1</b><br>operator: %2<br>kernel #%3 (id %4), %5 phase<br>"
              "duration: %6 ns<br>inputs: %7 tensors, %8 bytes<br>outputs: %9 tensors, %10 bytes"
              "<br>workspace: %11 bytes")
        .arg(toQString(k.name).toHtmlEscaped(), toQString(k.op).toHtmlEscaped())
        .arg(row)
        .arg(k.id)
        .arg(toQString(toString(k.phase)))
        .arg(k.duration)
        .arg(k.inputs.size())
        .arg(data_->kernelInputBytes[r])
        .arg(k.outputs.size())
        .arg(data_->kernelOutputBytes[r])
        .arg(k.workspaceBytes);
}


bool KernelTableModel::isRightAligned(int column) const {
    return column != Name && column != Op && column != Phase;
}

}  // namespace spillway::views
