#include "app/gui/run_failure_banner.h"

#include "core/trace/units.h"
#include "views/format_units.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include <cmath>

namespace spillway::app {

qint64 panelGpuBytesAtLeast(qint64 bytes) {
    // A round amount a person reads on the button ("Use 1.23 GiB"): the least value of 0.01 GiB
    // steps, llround(hundredths / 100 x 1 GiB), not below `bytes`. The panel takes it exactly.
    const auto held = [](qint64 hundredths) { return std::llround(double(hundredths) / 100.0 * double(kGiB)); };
    qint64 hundredths = std::llround(double(bytes) * 100.0 / double(kGiB));
    while (held(hundredths) < bytes) ++hundredths;
    while (hundredths > 0 && held(hundredths - 1) >= bytes) --hundredths;
    return held(hundredths);
}

RunFailureBanner::RunFailureBanner(QWidget* parent) : QFrame(parent) {
    setObjectName("runFailureBanner");
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet("#runFailureBanner { background: #fff4e5; border: 1px solid #e0a040; }");
    label_ = new QLabel(this);
    label_->setObjectName("runFailureText");
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    use_ = new QPushButton(this);
    use_->setObjectName("useMinimumGpu");
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(label_, 1);
    layout->addWidget(use_);
    connect(use_, &QPushButton::clicked, this, [this] { emit useGpuRequested(panelGpuBytesAtLeast(offered_)); });
    hide();
}

void RunFailureBanner::showFailure(const QString& message, qint64 minimumGpuBytes) {
    offered_ = minimumGpuBytes;
    QString text = tr("These settings cannot be simulated: %1").arg(message);
    if (minimumGpuBytes > 0)
        text += tr("\nThe least GPU memory on which this run goes: %1.").arg(views::formatBytes(minimumGpuBytes));
    label_->setText(text);
    use_->setVisible(minimumGpuBytes > 0);
    use_->setText(tr("Use %1 GiB").arg(double(panelGpuBytesAtLeast(minimumGpuBytes)) / double(kGiB), 0, 'f', 2));
    show();
}

void RunFailureBanner::clear() {
    offered_ = 0;
    hide();
}

QString RunFailureBanner::text() const { return label_->text(); }

}  // namespace spillway::app
