#include "views/tensor_table_model.h"

#include "views/format_units.h"

namespace spillway::views {

TensorTableModel::TensorTableModel(QObject* parent)
    : ProfileTableModel(
          {
              {QT_TR_NOOP("Id"), QT_TR_NOOP("Tensor id in the profile")},
              {QT_TR_NOOP("Name"), QT_TR_NOOP("Tensor name")},
              {QT_TR_NOOP("Kind"), QT_TR_NOOP("What the tensor holds (weight, activation, gradient, ...)")},
              {QT_TR_NOOP("Size"), QT_TR_NOOP("Size in bytes")},
              {QT_TR_NOOP("Persistent"), QT_TR_NOOP("Survives the iteration (weights, optimizer state)")},
              {QT_TR_NOOP("Producer"), QT_TR_NOOP("First kernel that writes the tensor")},
              {QT_TR_NOOP("First use"), QT_TR_NOOP("First kernel that reads or writes the tensor")},
              {QT_TR_NOOP("Last use"), QT_TR_NOOP("Last kernel that reads or writes the tensor")},
              {QT_TR_NOOP("Uses"), QT_TR_NOOP("Number of kernels that read or write the tensor")},
          },
          parent) {}

int TensorTableModel::rowsIn(const ProfileViewData& data) const {
    return static_cast<int>(data.profile->tensors.size());
}

// Kernel positions sort numerically; "none" (-1) sorts before every kernel.
QVariant TensorTableModel::sortValue(int row, int column) const {
    const auto r = static_cast<size_t>(row);
    const auto& t = data_->profile->tensors[r];
    const auto& live = data_->liveness.tensors[r];
    switch (column) {
    case Id: return qint64(t.id);
    case Name: return toQString(t.name);
    case Kind: return toQString(toString(t.kind));
    case Size: return qint64(t.bytes);
    case Persistent: return t.persistent ? tr("yes") : tr("no");
    case Producer: return qint64(data_->tensorProducer[r]);
    case FirstUse: return qint64(live.firstUse);
    case LastUse: return qint64(live.lastUse);
    case Uses: return qint64(live.uses.size());
    }
    return {};
}

QString TensorTableModel::kernelLabel(std::int64_t kernelPos) const {
    if (kernelPos < 0) return QStringLiteral("—");
    return QStringLiteral("#%1 %2").arg(kernelPos).arg(toQString(data_->profile->kernels[static_cast<size_t>(kernelPos)].name));
}

QVariant TensorTableModel::displayValue(int row, int column) const {
    const auto r = static_cast<size_t>(row);
    switch (column) {
    case Size: return formatBytes(data_->profile->tensors[r].bytes);
    case Producer: return kernelLabel(data_->tensorProducer[r]);
    case FirstUse: return kernelLabel(data_->liveness.tensors[r].firstUse);
    case LastUse: return kernelLabel(data_->liveness.tensors[r].lastUse);
    default: return sortValue(row, column);
    }
}

QString TensorTableModel::toolTip(int row) const {
    const auto r = static_cast<size_t>(row);
    const auto& t = data_->profile->tensors[r];
    const auto& live = data_->liveness.tensors[r];
    QString tip = tr("<b>%1</b><br>id %2, %3, job %4<br>%5 bytes (%6)%7")
                      .arg(toQString(t.name).toHtmlEscaped())
                      .arg(t.id)
                      .arg(toQString(toString(t.kind)))
                      .arg(t.job)
                      .arg(t.bytes)
                      .arg(formatBytes(t.bytes),
                           t.persistent ? tr("<br>persistent: lives across iterations") : QString());
    if (live.uses.empty()) return tip + tr("<br>not used by any kernel");
    return tip + tr("<br>produced by %1<br>used by %2 kernels, from %3 to %4")
                     .arg(kernelLabel(data_->tensorProducer[r]).toHtmlEscaped())
                     .arg(live.uses.size())
                     .arg(kernelLabel(live.firstUse).toHtmlEscaped(), kernelLabel(live.lastUse).toHtmlEscaped());
}


// Numbers are right-aligned; names and kernel labels ("#3 relu_kernel") read from the left.
bool TensorTableModel::isRightAligned(int column) const {
    return column == Id || column == Size || column == Uses;
}

}  // namespace spillway::views
