#include "app/gui/open_profile_dialog.h"

#include "app/gui/open_dialog_filters.h"
#include "core/io/base/import_options.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>
#include <memory>

namespace spillway::app {

IterationChoice::IterationChoice(QWidget* parent) : QWidget(parent) {
    setObjectName("iterationChoice");
    combo_ = new QComboBox(this);
    combo_->setObjectName("iterationCombo");
    combo_->addItem(tr("steady-state (default)"));
    combo_->addItem(tr("all"));
    combo_->addItem(tr("number K"));
    combo_->setToolTip(tr("Snapshots, traces and captures that hold several training iterations: a steady-state one "
                          "(the default), all of them as one long profile, or the K-th found (from 1). The Overview "
                          "says how many were found. Other formats hold one iteration and ignore this."));
    number_ = new QSpinBox(this);
    number_->setObjectName("iterationNumber");
    number_->setRange(1, 1'000'000);
    number_->setPrefix(tr("K = "));
    number_->setEnabled(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(combo_);
    layout->addWidget(number_);
    layout->addStretch(1);
    connect(combo_, &QComboBox::currentIndexChanged, this, [this](int entry) { number_->setEnabled(entry == Number); });
}

std::int64_t IterationChoice::iteration() const {
    switch (combo_->currentIndex()) {
    case All: return ImportOptions::kAllIterations;
    case Number: return number_->value();
    default: return ImportOptions::kSteadyIteration;
    }
}

void IterationChoice::setIteration(std::int64_t iteration) {
    if (iteration >= 1) {
        number_->setValue(int(std::min<std::int64_t>(iteration, number_->maximum())));
        combo_->setCurrentIndex(Number);
    } else {
        combo_->setCurrentIndex(iteration == ImportOptions::kAllIterations ? All : Steady);
    }
}

QFileDialog* makeOpenProfileDialog(QWidget* parent, const QString& directory, std::int64_t iteration) {
    auto* dialog = new QFileDialog(parent, QObject::tr("Open Profile"), directory);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setNameFilters(profileOpenFilters());
    // A platform's native dialog takes no extra widgets.
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    auto* choice = new IterationChoice(dialog);
    choice->setIteration(iteration);
    if (auto* grid = qobject_cast<QGridLayout*>(dialog->layout())) {
        const int row = grid->rowCount();
        auto* label = new QLabel(QObject::tr("&Iteration:"), dialog);
        label->setBuddy(choice->combo());
        grid->addWidget(label, row, 0);
        grid->addWidget(choice, row, 1, 1, -1);
    }
    return dialog;
}

std::optional<OpenRequest> askProfileToOpen(QWidget* parent) {
    QSettings settings;
    std::unique_ptr<QFileDialog> dialog(makeOpenProfileDialog(parent, settings.value("lastOpenDir").toString(),
                                                              settings.value("open/iteration", 0).toLongLong()));
    if (dialog->exec() != QDialog::Accepted || dialog->selectedFiles().isEmpty()) return std::nullopt;
    const auto* choice = dialog->findChild<IterationChoice*>("iterationChoice");
    OpenRequest request{dialog->selectedFiles().first(), choice ? choice->iteration() : ImportOptions::kSteadyIteration};
    settings.setValue("lastOpenDir", QFileInfo(request.path).absolutePath());
    settings.setValue("open/iteration", qint64(request.iteration));
    return request;
}

}  // namespace spillway::app
