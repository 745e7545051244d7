#include "app/gui/find_bar.h"

#include "app/gui/find_tensor.h"

#include <QAction>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStringListModel>
#include <QToolButton>

namespace spillway::app {

FindBar::FindBar(ProfileSource profile, QWidget* parent) : QWidget(parent), profile_(std::move(profile)) {
    setObjectName("findBar");
    edit_ = new QLineEdit(this);
    edit_->setObjectName("findEdit");
    edit_->setPlaceholderText(tr("Tensor name or id"));
    edit_->setClearButtonEnabled(true);
    edit_->setMinimumWidth(260);
    completions_ = new QStringListModel(this);
    completer_ = new QCompleter(completions_, this);
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    completer_->setFilterMode(Qt::MatchContains);
    completer_->setMaxVisibleItems(12);
    edit_->setCompleter(completer_);
    message_ = new QLabel(this);
    message_->setObjectName("findMessage");
    auto* findButton = new QToolButton(this);
    findButton->setText(tr("Find"));
    auto* closeButton = new QToolButton(this);
    closeButton->setIcon(QIcon::fromTheme("window-close"));
    closeButton->setText(tr("Close"));
    closeButton->setToolTip(tr("Close the find bar (Esc)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(new QLabel(tr("Find tensor:"), this));
    layout->addWidget(edit_);
    layout->addWidget(findButton);
    layout->addWidget(message_, 1);
    layout->addWidget(closeButton);
    connect(edit_, &QLineEdit::returnPressed, this, &FindBar::find);
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& text) {
        edit_->setText(text);
        find();
    });
    connect(findButton, &QToolButton::clicked, this, &FindBar::find);
    connect(closeButton, &QToolButton::clicked, this, &FindBar::closeRequested);
    auto* escape = new QAction(this);
    escape->setShortcut(Qt::Key_Escape);
    escape->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QAction::triggered, this, &FindBar::closeRequested);
    addAction(escape);
}

QString FindBar::message() const { return message_->text(); }

void FindBar::refreshCompletions() {
    auto profile = profile_();
    if (profile == completing_) return;
    completing_ = std::move(profile);
    completions_->setStringList(completing_ ? tensorCompletions(*completing_) : QStringList());
}

void FindBar::activate() {
    refreshCompletions();
    edit_->setFocus(Qt::ShortcutFocusReason);
    edit_->selectAll();
}

void FindBar::find() {
    refreshCompletions();
    const QString query = edit_->text().trimmed();
    if (query.isEmpty()) return;
    if (!completing_) {
        message_->setStyleSheet("color: #b00000");
        message_->setText(tr("no profile is open"));
        return;
    }
    const std::int64_t pos = findTensor(*completing_, query);
    if (pos < 0) {
        message_->setStyleSheet("color: #b00000");
        message_->setText(tr("no tensor matches ‘%1’").arg(query));
        return;
    }
    const Tensor& t = completing_->tensors[size_t(pos)];
    message_->setStyleSheet({});
    message_->setText(tr("%1 (id %2)").arg(QString::fromStdString(t.name)).arg(t.id));
    emit tensorFound(pos);
}

}  // namespace spillway::app
