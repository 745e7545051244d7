#include "app/gui/sweep_profile_list.h"

#include "app/gui/open_dialog_filters.h"
#include "core/io/base/import_error.h"
#include "core/io/valid_profile.h"
#include "core/store/workspace.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace spillway::app {

namespace {

enum Role { FileRole = Qt::UserRole, WorkspacePathRole, WorkspaceIdRole };

}  // namespace

std::vector<BatchProfile> loadSweepProfiles(const std::vector<SweepProfileSource>& sources,
                                            const std::atomic<bool>* cancel, const std::function<void()>& loadedOne) {
    std::vector<BatchProfile> out;
    std::optional<store::Workspace> workspace;  // one connection for all the stored profiles
    QString workspacePath;
    for (const SweepProfileSource& s : sources) {
        if (cancel && cancel->load()) throw LoadCancelled();
        BatchProfile b;
        b.source = s.label.toStdString();
        if (!s.file.isEmpty()) {
            LoadProgress progress;
            progress.cancel = cancel;
            b.profile = std::make_shared<const Profile>(loadValidProfile(QFile::encodeName(s.file).toStdString(), {}, progress));
        } else {
            try {
                if (!workspace || workspacePath != s.workspacePath) {
                    workspace.reset();
                    workspace.emplace(store::Workspace::open(QFile::encodeName(s.workspacePath).toStdString()));
                    workspacePath = s.workspacePath;
                }
                b.profile = std::make_shared<const Profile>(workspace->loadProfile(s.workspaceProfileId));
            } catch (const std::exception& e) {
                throw ImportError(b.source, e.what());
            }
            // Stored before loads were checked, a profile may still have problems: refused the same.
            requireValidProfile(*b.profile, b.source);
        }
        out.push_back(std::move(b));
        if (loadedOne) loadedOne();
    }
    return out;
}

SweepProfileList::SweepProfileList(QWidget* parent) : QWidget(parent) {
    list_ = new QListWidget(this);
    list_->setObjectName("sweepProfiles");
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->setToolTip(tr("One profile per batch size of the same model; each profile's own batch is its x value"));
    list_->setMaximumHeight(120);
    auto* addFiles = new QPushButton(tr("Add &Files…"), this);
    addWorkspace_ = new QPushButton(tr("Add &Workspace Profiles"), this);
    addWorkspace_->setToolTip(tr("Every profile stored in the open workspace (remove the ones you do not want)"));
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(addFiles);
    buttons->addWidget(addWorkspace_);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);
    connect(addFiles, &QPushButton::clicked, this, &SweepProfileList::chooseFiles);
    connect(addWorkspace_, &QPushButton::clicked, this, &SweepProfileList::addWorkspaceProfiles);
    connect(remove, &QPushButton::clicked, this, &SweepProfileList::removeSelected);
}

void SweepProfileList::chooseFiles() {
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Profiles to Sweep"),
                                                            settings.value("lastOpenDir").toString(),
                                                            profileOpenFilters().join(";;"));
    if (paths.isEmpty()) return;
    settings.setValue("lastOpenDir", QFileInfo(paths.front()).absolutePath());
    addFiles(paths);
}

void SweepProfileList::add(const SweepProfileSource& source) {
    auto* item = new QListWidgetItem(source.label, list_);
    item->setData(FileRole, source.file);
    item->setData(WorkspacePathRole, source.workspacePath);
    item->setData(WorkspaceIdRole, source.workspaceProfileId);
    item->setToolTip(source.file.isEmpty() ? tr("Stored in %1").arg(source.workspacePath) : source.file);
}

void SweepProfileList::addFiles(const QStringList& paths) {
    for (const QString& path : paths) {
        const auto present = sources();
        const bool known = std::any_of(present.begin(), present.end(),
                                       [&](const SweepProfileSource& s) { return s.file == path; });
        if (!known) add({path, path, {}, 0});
    }
    emit changed();
}

int SweepProfileList::addWorkspaceProfiles() {
    const WorkspaceProfiles stored = workspaceSource_ ? workspaceSource_() : WorkspaceProfiles{};
    if (stored.path.isEmpty()) return 0;
    const auto present = sources();
    int added = 0;
    for (const auto& p : stored.profiles) {
        const bool known = std::any_of(present.begin(), present.end(), [&](const SweepProfileSource& s) {
            return s.workspaceProfileId == p.id && s.workspacePath == stored.path;
        });
        if (known) continue;
        const QString label = p.model.isEmpty() || p.model == p.name
                                  ? tr("workspace: %1").arg(p.name)
                                  : tr("workspace: %1 (%2)").arg(p.name, p.model);
        add({label, {}, stored.path, p.id});
        ++added;
    }
    emit changed();
    return added;
}

void SweepProfileList::removeSelected() {
    qDeleteAll(list_->selectedItems());
    emit changed();
}

void SweepProfileList::clear() {
    list_->clear();
    emit changed();
}

std::vector<SweepProfileSource> SweepProfileList::sources() const {
    std::vector<SweepProfileSource> out;
    for (int i = 0; i < list_->count(); ++i) {
        const QListWidgetItem* item = list_->item(i);
        out.push_back({item->text(), item->data(FileRole).toString(), item->data(WorkspacePathRole).toString(),
                       item->data(WorkspaceIdRole).toLongLong()});
    }
    return out;
}

}  // namespace spillway::app
