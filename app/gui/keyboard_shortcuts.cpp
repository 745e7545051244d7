#include "app/gui/keyboard_shortcuts.h"

#include "app/gui/shortcut_list.h"

#include "app/gui/keyboard_navigator.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace spillway::app {

KeyboardShortcuts::KeyboardShortcuts(KeyboardNavigator* navigator, QWidget* window)
    : QObject(window), window_(window) {
    // Ctrl+= too: on most layouts "+" needs Shift, so Ctrl+= is the key people press.
    zoomIn_ = make(tr("Zoom &In"), {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)}, "zoomInAction");
    zoomOut_ = make(tr("Zoom &Out"), {QKeySequence::ZoomOut}, "zoomOutAction");
    reset_ = make(tr("&Reset Zoom"), {QKeySequence(Qt::CTRL | Qt::Key_0)}, "resetZoomAction");
    panLeft_ = make(tr("Pan &Left"), {QKeySequence(Qt::Key_Left)}, "panLeftAction");
    panRight_ = make(tr("Pan Ri&ght"), {QKeySequence(Qt::Key_Right)}, "panRightAction");
    nextKernel_ = make(tr("&Next Kernel"), {QKeySequence(Qt::Key_BracketRight)}, "nextKernelAction");
    previousKernel_ = make(tr("&Previous Kernel"), {QKeySequence(Qt::Key_BracketLeft)}, "previousKernelAction");
    find_ = make(tr("&Find Tensor…"), {QKeySequence::Find}, "findTensorAction");
    zoomIn_->setStatusTip(tr("Halve the time window every time view shows"));
    zoomOut_->setStatusTip(tr("Double the time window every time view shows"));
    reset_->setStatusTip(tr("Show the whole iteration"));
    nextKernel_->setStatusTip(tr("Select the next kernel and scroll the time views to it"));
    previousKernel_->setStatusTip(tr("Select the previous kernel and scroll the time views to it"));
    find_->setStatusTip(tr("Find a tensor by name or id and select it in every view"));
    connect(zoomIn_, &QAction::triggered, navigator, &KeyboardNavigator::zoomIn);
    connect(zoomOut_, &QAction::triggered, navigator, &KeyboardNavigator::zoomOut);
    connect(reset_, &QAction::triggered, navigator, &KeyboardNavigator::reset);
    connect(panLeft_, &QAction::triggered, navigator, &KeyboardNavigator::panLeft);
    connect(panRight_, &QAction::triggered, navigator, &KeyboardNavigator::panRight);
    connect(nextKernel_, &QAction::triggered, navigator, &KeyboardNavigator::nextKernel);
    connect(previousKernel_, &QAction::triggered, navigator, &KeyboardNavigator::previousKernel);
    // Arrows: only where a time view has focus (attachPanKeys); the menu entries still work.
    for (QAction* pan : {panLeft_, panRight_}) pan->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    for (QAction* a : {zoomIn_, zoomOut_, reset_, nextKernel_, previousKernel_, find_}) window_->addAction(a);
}

QAction* KeyboardShortcuts::make(const QString& text, const QList<QKeySequence>& keys, const char* objectName) {
    auto* action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcuts(keys);
    return action;
}

QMenu* KeyboardShortcuts::addViewMenu(QMenuBar* bar, QAction* before) {
    auto* view = new QMenu(tr("&View"), bar);
    bar->insertMenu(before, view);
    view->setObjectName("viewMenu");
    view->addAction(zoomIn_);
    view->addAction(zoomOut_);
    view->addAction(reset_);
    view->addAction(panLeft_);
    view->addAction(panRight_);
    view->addSeparator();
    view->addAction(previousKernel_);
    view->addAction(nextKernel_);
    view->addSeparator();
    view->addAction(find_);
    return view;
}

void KeyboardShortcuts::attachPanKeys(QWidget* view) {
    // A click anywhere in the view (its plots take no focus) gives it the focus the keys need.
    if (view->focusPolicy() == Qt::NoFocus) view->setFocusPolicy(Qt::ClickFocus);
    view->addAction(panLeft_);
    view->addAction(panRight_);
}

QString KeyboardShortcuts::shortcutsHtml(const QWidget* window) {
    QString rows;
    for (const ShortcutEntry& e : collectShortcuts(window))
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                    .arg(e.keys.toHtmlEscaped(), e.text.toHtmlEscaped(), e.where.toHtmlEscaped());
    const QString mouse =
        tr("<tr><td><b>Drag</b></td><td>Memory: select a time range; Lifetimes: pan</td></tr>"
           "<tr><td><b>Wheel</b></td><td>Memory, Lifetimes: zoom around the cursor</td></tr>"
           "<tr><td><b>Double-click</b></td><td>Memory: show the whole iteration</td></tr>"
           "<tr><td><b>Click</b></td><td>Lifetimes, offset map: select a tensor; Stalls: select a kernel</td></tr>"
           "<tr><td><b>+ − 0 ← →</b></td><td>Lifetimes with focus: zoom, reset, pan</td></tr>");
    return tr("<h3>Keys</h3><table cellspacing='6'>%1</table><h3>Mouse</h3><table cellspacing='6'>%2</table>")
        .arg(rows, mouse);
}

void KeyboardShortcuts::showShortcutsDialog(QWidget* parent, const QWidget* window) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName("shortcutsDialog");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    auto* text = new QTextBrowser(dialog);
    text->setHtml(shortcutsHtml(window));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(520, 560);
    dialog->open();  // non-blocking, like the other dialogs
}

}  // namespace spillway::app
