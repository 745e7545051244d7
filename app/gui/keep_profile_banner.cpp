#include "app/gui/keep_profile_banner.h"

#include "views/format_units.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace spillway::app {

KeepProfileBanner::KeepProfileBanner(QWidget* parent) : QFrame(parent) {
    setObjectName("keepProfileBanner");
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet("#keepProfileBanner { background: #eef4fb; border: 1px solid #8fb3d9; }");
    label_ = new QLabel(this);
    label_->setObjectName("keepProfileText");
    label_->setWordWrap(true);
    keep_ = new QPushButton(tr("&Keep in workspace"), this);
    keep_->setObjectName("keepProfileButton");
    dismiss_ = new QPushButton(tr("Not now"), this);
    dismiss_->setObjectName("dismissKeepProfile");
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(label_, 1);
    layout->addWidget(keep_);
    layout->addWidget(dismiss_);
    connect(keep_, &QPushButton::clicked, this, [this] {
        hide();
        emit keepRequested();
    });
    connect(dismiss_, &QPushButton::clicked, this, &KeepProfileBanner::clear);
    hide();
}

void KeepProfileBanner::offer(const QString& name, qint64 bytes) {
    label_->setText(tr("‘%1’ (%2) is not in the workspace. Keep it to find it there later; keeping a run keeps "
                       "its profile too.")
                        .arg(name, views::formatBytes(bytes)));
    show();
}

void KeepProfileBanner::clear() { hide(); }

QString KeepProfileBanner::text() const { return label_->text(); }

}  // namespace spillway::app
