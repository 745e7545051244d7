#include "app/gui/workspace_writer.h"

#include <QPointer>
#include <QSemaphore>
#include <QThread>

namespace spillway::app {

WorkspaceWriter::WorkspaceWriter(std::filesystem::path path, QObject* parent)
    : QObject(parent), path_(std::move(path)), thread_(new QThread), worker_(new QObject) {
    thread_->setObjectName("workspaceWriter");
    worker_->moveToThread(thread_);
    thread_->start();
}

WorkspaceWriter::~WorkspaceWriter() {
    // Queued after every job already posted, so they all run first; the connection closes on
    // the thread that used it.
    QMetaObject::invokeMethod(worker_, [this] {
        workspace_.reset();
        QThread::currentThread()->quit();
    }, Qt::QueuedConnection);
    thread_->wait();
    delete worker_;
    delete thread_;
}

void WorkspaceWriter::post(Job job, QObject* context, Done done) {
    ++pending_;
    QPointer<QObject> target(context);
    const bool wantsDone = context && done;
    QMetaObject::invokeMethod(worker_, [this, job = std::move(job), target, done = std::move(done), wantsDone] {
        WorkspaceJobResult result;
        try {
            if (!workspace_) workspace_.emplace(store::Workspace::open(path_));
            result.id = job(*workspace_);
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        --pending_;
        if (wantsDone && target)
            QMetaObject::invokeMethod(target, [done, result] { done(result); }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

void WorkspaceWriter::waitForIdle() {
    QSemaphore finished;
    QMetaObject::invokeMethod(worker_, [&finished] { finished.release(); }, Qt::QueuedConnection);
    finished.acquire();
}

}  // namespace spillway::app
