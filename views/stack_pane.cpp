#include "views/stack_pane.h"

#include "views/format_units.h"
#include "views/view_link.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace spillway::views {

namespace {

// The same yellow as the selection highlight in the Memory and Lifetimes views.
const QColor kUserFrameBackground(255, 236, 140);

QString timeText(const std::optional<Nanoseconds>& at) {
    return at ? formatDuration(*at) : QObject::tr("before the recording");
}

}  // namespace

StackPane::StackPane(ViewLink* link, QWidget* parent) : QWidget(parent), link_(link) {
    header_ = new QLabel(this);
    header_->setObjectName("stackHeader");
    header_->setWordWrap(true);
    header_->setTextFormat(Qt::RichText);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    header_->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    frames_ = new QTreeWidget(this);
    frames_->setObjectName("stackFrames");
    frames_->setColumnCount(ColumnCount);
    frames_->setHeaderLabels({QString(), tr("Function"), tr("File:line")});
    frames_->setRootIsDecorated(false);
    frames_->setUniformRowHeights(true);
    frames_->setAlternatingRowColors(true);
    frames_->setWordWrap(false);
    frames_->setTextElideMode(Qt::ElideMiddle);  // keeps the line number of a long path in view
    frames_->header()->setSectionResizeMode(Marker, QHeaderView::ResizeToContents);
    frames_->header()->setSectionResizeMode(Function, QHeaderView::ResizeToContents);
    frames_->header()->setStretchLastSection(true);
    frames_->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("Copy Stack"), frames_);
    copy->setObjectName("copyStackAction");
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(stackText()); });
    frames_->addAction(copy);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(header_);
    layout->addWidget(frames_, 1);
    connect(link_, &ViewLink::selectedTensorChanged, this, &StackPane::showTensor);
    showTensor(-1);
}

void StackPane::setViewData(std::shared_ptr<const ProfileViewData> data) {
    data_ = std::move(data);
    showTensor(link_->selectedTensor());
}

void StackPane::showTensor(std::int64_t tensorPos) {
    frames_->clear();
    userRow_ = -1;
    const bool valid = data_ && tensorPos >= 0 && tensorPos < std::int64_t(data_->profile->tensors.size());
    shown_ = valid ? tensorPos : -1;
    if (!valid) {
        header_->setText(data_ ? tr("Select a tensor (Tensors, Lifetimes, Offsets, Frames or Ctrl+F) to see the "
                                    "stack that allocated it.")
                               : tr("No profile open."));
        return;
    }
    const Tensor& tensor = data_->profile->tensors[size_t(tensorPos)];
    showHeader(tensor, tensorPos);
    fillFrames(tensor);
}

void StackPane::showHeader(const Tensor& tensor, std::int64_t tensorPos) {
    QString html = tr("<b>%1</b> <span style='color:gray'>(id %2)</span><br>%3 · %4 <span style='color:gray'>(%5 bytes)</span>")
                       .arg(toQString(tensor.name).toHtmlEscaped())
                       .arg(tensor.id)
                       .arg(toQString(toString(tensor.kind)), formatBytes(tensor.bytes))
                       .arg(tensor.bytes);
    if (tensor.persistent) html += tr(" · persistent");
    if (tensor.allocTime || tensor.freeTime) {
        html += tr("<br>allocated at %1, freed %2").arg(timeText(tensor.allocTime), tensor.freeTime ? tr("at %1").arg(formatDuration(*tensor.freeTime)) : tr("never (still live at the end)"));
        if (tensor.allocTime && tensor.freeTime)
            html += tr(" (lived %1)").arg(formatDuration(*tensor.freeTime - *tensor.allocTime));
    }
    const auto& live = data_->liveness.tensors[size_t(tensorPos)];
    if (live.used()) html += tr("<br>needed from kernel #%1 to #%2").arg(live.firstUse).arg(live.lastUse);
    if (tensor.frames.empty()) {
        html += tr("<p><b>No stack recorded</b> for this tensor. PyTorch memory snapshots recorded with "
                   "<tt>_record_memory_history(stacks=\"python\")</tt> or <tt>\"all\"</tt> have them; other formats do "
                   "not.</p>");
    } else {
        const auto user = firstUserFrame(tensor);
        html += tensor.frames.size() == 1 ? tr("<br>1 frame") : tr("<br>%1 frames, innermost first").arg(tensor.frames.size());
        html += user >= 0 ? tr("; ▶ marks the first frame outside torch (frame %1)").arg(user)
                          : tr("; every frame is inside torch");
    }
    header_->setText(html);
}

void StackPane::fillFrames(const Tensor& tensor) {
    const auto user = firstUserFrame(tensor);
    const QBrush grey(palette().color(QPalette::Disabled, QPalette::Text));
    QList<QTreeWidgetItem*> items;
    for (size_t i = 0; i < tensor.frames.size(); ++i) {
        const std::string_view frame = tensor.frames[i];
        const StackFrameParts parts = splitStackFrame(frame);
        auto* item = new QTreeWidgetItem;
        item->setText(Marker, std::int64_t(i) == user ? QStringLiteral("▶") : QString::number(i));
        item->setText(Function, toQString(parts.function));
        item->setText(Location, parts.line < 0 ? QString()
                                               : QStringLiteral("%1:%2").arg(toQString(shortFrameFile(parts.file))).arg(parts.line));
        for (int c = 0; c < ColumnCount; ++c) item->setToolTip(c, toQString(frame).toHtmlEscaped());
        item->setTextAlignment(Marker, Qt::AlignRight | Qt::AlignVCenter);
        if (std::int64_t(i) == user) {
            QFont bold = item->font(Function);
            bold.setBold(true);
            for (int c = 0; c < ColumnCount; ++c) {
                item->setFont(c, bold);
                item->setBackground(c, kUserFrameBackground);
                item->setForeground(c, QBrush(Qt::black));
            }
            item->setToolTip(Function, tr("The first frame outside torch: where your code called in<br>%1")
                                           .arg(toQString(frame).toHtmlEscaped()));
        } else if (isTorchFrame(frame)) {
            for (int c = 0; c < ColumnCount; ++c) item->setForeground(c, grey);
        }
        items << item;
    }
    frames_->addTopLevelItems(items);
    userRow_ = int(user);
    if (user >= 0) frames_->scrollToItem(frames_->topLevelItem(int(user)));
}

QString StackPane::headerText() const {
    QTextDocument doc;
    doc.setHtml(header_->text());
    return doc.toPlainText();
}

int StackPane::frameCount() const { return frames_->topLevelItemCount(); }

QString StackPane::frameText(int row) const {
    const QTreeWidgetItem* item = frames_->topLevelItem(row);
    return item ? item->text(Function) + "  " + item->text(Location) : QString();
}

QString StackPane::stackText() const {
    if (!data_ || shown_ < 0) return {};
    QStringList lines;
    for (const auto& frame : data_->profile->tensors[size_t(shown_)].frames) lines << toQString(std::string_view(frame));
    return lines.join('\n');
}

}  // namespace spillway::views
