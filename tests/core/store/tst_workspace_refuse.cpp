// What is not a Spillway workspace is refused with a message naming the file and the reason,
// and the file is left byte for byte as it was (no WAL switch, no checkpoint, no migration).
#include "core/store/workspace.h"
#include "core/store/workspace_schema.h"
#include "store_test_support.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

using namespace spillway;
using namespace spillway::store;
using namespace spillway::testing;

namespace {

using Reason = WorkspaceError::Reason;

void rawSql(const std::filesystem::path& path, const char* sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, message.c_str());
}

// A workspace with a few runs, closed cleanly (WAL checkpointed into the file).
std::filesystem::path makeWorkspace(const std::filesystem::path& path, int runs) {
    auto ws = Workspace::create(path);
    const auto p = ws.addProfile(smallStep(), "p");
    for (int i = 0; i < runs; ++i) ws.addRun(p, "run", smallMachine(), Plan{}, syntheticResult(i, 2000));
    return path;
}

}  // namespace

class TestWorkspaceRefuse : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::filesystem::path at(const char* name) { return std::filesystem::path(dir_.path().toStdString()) / name; }

    // Opens `path`, expects `reason` and a message with the file name and `words`; the file's
    // bytes are unchanged and no -wal/-shm file was left beside it.
    void expectRefused(const std::filesystem::path& path, Reason reason, const std::string& words) {
        const std::string before = fileBytes(path);
        try {
            Workspace::open(path);
            QFAIL(("opened " + path.string()).c_str());
        } catch (const WorkspaceError& e) {
            const std::string what = e.what();
            QVERIFY2(e.reason() == reason, what.c_str());
            QVERIFY2(what.find(path.string()) == 0, what.c_str());
            QVERIFY2(what.find(words) != std::string::npos, what.c_str());
            QCOMPARE(e.file(), path.string());
        }
        QVERIFY(fileBytes(path) == before);
        QVERIFY(!std::filesystem::exists(path.string() + "-wal"));
        QVERIFY(!std::filesystem::exists(path.string() + "-shm"));
    }

private slots:
    void textFile() {
        const auto path = at("notes.txt");
        writeBytes(path, std::string(4000, 'x') + "\nthis is not a database\n");
        expectRefused(path, Reason::NotSqlite, "not an SQLite database");
    }

    void emptyAndShortFiles() {
        const auto empty = at("empty.spillway");
        writeBytes(empty, "");
        expectRefused(empty, Reason::NotSqlite, "0 bytes");
        const auto shortFile = at("short.spillway");
        writeBytes(shortFile, std::string("SQLite format 3\0", 16) + "abc");
        expectRefused(shortFile, Reason::NotSqlite, "too short");
    }

    void missingFile() {
        const auto path = at("missing.spillway");
        QVERIFY_THROWS_EXCEPTION(WorkspaceError, Workspace::open(path));
        QVERIFY(!std::filesystem::exists(path));
    }

    void anotherSqliteDatabase() {
        const auto path = at("other.db");
        rawSql(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);");
        expectRefused(path, Reason::NotSpillway, "application_id is 0x0");
        // another program's WAL database, with its own application id
        const auto wal = at("other-wal.db");
        rawSql(wal, "PRAGMA journal_mode = WAL; PRAGMA application_id = 1234; CREATE TABLE t(x);");
        expectRefused(wal, Reason::NotSpillway, "0x4d2");
    }

    void newerSchema() {
        const auto path = makeWorkspace(at("future.spillway"), 1);
        rawSql(path, "PRAGMA user_version = 3; PRAGMA journal_mode = DELETE;");
        expectRefused(path, Reason::TooNew, "schema version 3");
        QVERIFY(std::string(WorkspaceError(Reason::TooNew, "f", "x").what()).find("f: x") == 0);
    }

    void truncatedFile() {
        const auto path = makeWorkspace(at("cut.spillway"), 6);
        const std::string whole = fileBytes(path);
        QVERIFY(whole.size() > 100'000);
        writeBytes(path, whole.substr(0, whole.size() / 2));
        expectRefused(path, Reason::Corrupt, "damaged");
    }

    void overwrittenPages() {
        const auto path = makeWorkspace(at("scribbled.spillway"), 6);
        std::string bytes = fileBytes(path);
        // pages 2.. hold the schema's b-trees and the runs; 4096 bytes of garbage over page 3
        for (std::size_t i = 2 * 4096; i < 3 * 4096 && i < bytes.size(); ++i)
            bytes[i] = static_cast<char>(i * 131 % 251);
        writeBytes(path, bytes);
        expectRefused(path, Reason::Corrupt, "damaged");
    }

    void createNeverOverwrites() {
        const auto path = at("precious.txt");
        writeBytes(path, "do not touch");
        QVERIFY_THROWS_EXCEPTION(WorkspaceError, Workspace::create(path));
        QCOMPARE(fileBytes(path), std::string("do not touch"));
    }

    void aSoundWorkspaceStillOpens() {
        // the checks above refuse for the stated reason, not because opening is broken
        const auto path = makeWorkspace(at("fine.spillway"), 2);
        auto ws = Workspace::open(path);
        QCOMPARE(ws.listRuns().size(), size_t{2});
        QCOMPARE(ws.integrityCheck(), std::vector<std::string>{"ok"});
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceRefuse)
#include "tst_workspace_refuse.moc"
