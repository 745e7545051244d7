// The workspace file after a hard stop, and beside another process (issue 15, findings 8 and 9).
//
// 8: a kill during the very first start used to leave the default workspace unusable for good:
//    Workspace::create made the file in place, so a kill 8-14 ms in left a 0-byte file with a
//    -journal, or a WAL-mode file with no tables, and every later start refused it. The leftovers
//    are made here deterministically (the bytes such a kill leaves), and openOrCreate / create
//    replace them; anything that holds data is still refused, byte for byte untouched.
// 9: open() took the write lock even when the schema was current, so another connection's write
//    transaction made it fail with "database is locked".
#include "tests/core/store/store_test_support.h"

#include "core/store/workspace.h"
#include "core/store/workspace_schema.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <optional>

using namespace spillway;
using namespace spillway::store;
using namespace spillway::testing;

namespace {

using Reason = WorkspaceError::Reason;

// A plain SQLite connection, as another program (or a Spillway killed half-way) has it.
class RawDb {
public:
    explicit RawDb(const std::filesystem::path& path) {
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot open " + path.string());
    }
    ~RawDb() { sqlite3_close(db_); }
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;
    void exec(const char* sql) {
        char* error = nullptr;
        const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &error);
        const std::string message = error ? error : "";
        sqlite3_free(error);
        if (rc != SQLITE_OK) throw std::runtime_error(std::string(sql) + ": " + message);
    }
    // Closing leaves the -wal file as it is (a killed process never checkpoints).
    void keepWalOnClose() { sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr); }

private:
    sqlite3* db_ = nullptr;
};

// The header of a rollback journal SQLite writes before a change: magic, record count, nonce,
// the database's size before the change in pages, sector and page size, padded to a sector. A
// kill before the change commits leaves it beside the file ("hot"): the next writer rolls the
// file back to `pagesBefore` pages. From 0 pages, it was the first change to an empty file.
std::string hotJournal(unsigned char pagesBefore) {
    std::string j(512, '\0');
    const std::array<unsigned char, 28> header = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7,  // magic
                                                  0x00, 0x00, 0x00, 0x00,                          // records
                                                  0x12, 0x34, 0x56, 0x78,                          // nonce
                                                  0x00, 0x00, 0x00, pagesBefore,                   // pages before
                                                  0x00, 0x00, 0x02, 0x00,                          // sector 512
                                                  0x00, 0x00, 0x10, 0x00};                         // page 4096
    std::copy(header.begin(), header.end(), j.begin());
    return j;
}
std::string journalOfAnEmptyFile() { return hotJournal(0); }

bool present(const std::filesystem::path& p) { return std::filesystem::exists(p); }
std::filesystem::path beside(const std::filesystem::path& p, const char* suffix) { return p.string() + suffix; }

// Every file in `dir`, so a test can see nothing was left behind (no *.creating*).
std::vector<std::string> filesIn(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

class TestHostileWorkspace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    int next_ = 0;
    // A fresh folder per case, so "what is left beside it" is only this case's files.
    std::filesystem::path freshFolder() {
        const auto d = std::filesystem::path(dir_.path().toStdString()) / ("case" + std::to_string(next_++));
        std::filesystem::create_directories(d);
        return d;
    }

    // The leftover at `path` is replaced by a sound, empty, current workspace that then keeps
    // what is saved in it; nothing else is left in the folder.
    void expectUsableAfterOpenOrCreate(const std::filesystem::path& path) {
        try {
            auto ws = Workspace::openOrCreate(path);
            QCOMPARE(ws.schemaVersion(), kWorkspaceSchemaVersion);
            QVERIFY(ws.listProfiles().empty());
            ws.addProfile(smallStep(), "kept");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        auto again = Workspace::open(path);
        QCOMPARE(again.listProfiles().size(), std::size_t{1});
        QCOMPARE(again.integrityCheck(), std::vector<std::string>{"ok"});
        const auto names = filesIn(path.parent_path());
        for (const auto& n : names)
            QVERIFY2(n == path.filename().string() || n == path.filename().string() + "-wal" ||
                         n == path.filename().string() + "-shm",
                     ("left beside the workspace: " + n).c_str());
    }

    // openOrCreate and create refuse `path` and leave every file of it byte for byte.
    void expectRefusedUntouched(const std::filesystem::path& path) {
        std::vector<std::pair<std::filesystem::path, std::string>> before;
        for (const char* s : {"", "-journal", "-wal"})
            if (present(beside(path, s))) before.emplace_back(beside(path, s), fileBytes(beside(path, s)));
        QVERIFY_THROWS_EXCEPTION(WorkspaceError, Workspace::openOrCreate(path));
        QVERIFY_THROWS_EXCEPTION(WorkspaceError, Workspace::create(path));
        for (const auto& [p, bytes] : before) QVERIFY2(fileBytes(p) == bytes, p.c_str());
    }

private slots:
    // ---- 8: leftovers of a create that was killed

    void aZeroByteFileWithAJournalIsReplaced() {
        const auto path = freshFolder() / "workspace.spillway";
        writeBytes(path, "");
        writeBytes(beside(path, "-journal"), journalOfAnEmptyFile());
        expectUsableAfterOpenOrCreate(path);
        QVERIFY(!present(beside(path, "-journal")));
    }

    void aZeroByteFileAloneIsReplaced() {
        const auto path = freshFolder() / "workspace.spillway";
        writeBytes(path, "");
        expectUsableAfterOpenOrCreate(path);
    }

    void aWalFileWithNoTablesIsReplaced() {
        // Killed after the switch to WAL, before the schema committed: page 1 only, no tables.
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("PRAGMA journal_mode = WAL");
        }
        QVERIFY(std::filesystem::file_size(path) >= 100);
        expectUsableAfterOpenOrCreate(path);
    }

    void aWalFileWhoseSchemaNeverCommittedIsReplaced() {
        // Killed while the schema's frames were going into the WAL: the frames are there, the
        // commit frame is not, so SQLite sees no tables (and would ignore the frames).
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("PRAGMA journal_mode = WAL");
            db.keepWalOnClose();
            db.exec("BEGIN; PRAGMA application_id = 1397771351; CREATE TABLE profiles(id INTEGER PRIMARY KEY); "
                    "CREATE TABLE runs(id INTEGER PRIMARY KEY); PRAGMA user_version = 1; COMMIT;");
        }
        const auto wal = beside(path, "-wal");
        const std::string frames = fileBytes(wal);
        constexpr std::size_t kWalHeader = 32, kFrame = 24 + 4096;
        QVERIFY(frames.size() >= kWalHeader + 2 * kFrame);
        writeBytes(wal, frames.substr(0, frames.size() - kFrame));  // the commit frame is the last
        expectUsableAfterOpenOrCreate(path);
    }

    void aFirstPageWithAJournalFromNothingIsReplaced() {
        // Killed while the switch to WAL wrote page 1: the journal rolls the file back to nothing.
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("PRAGMA journal_mode = WAL");
        }
        writeBytes(beside(path, "-journal"), journalOfAnEmptyFile());
        expectUsableAfterOpenOrCreate(path);
        QVERIFY(!present(beside(path, "-journal")));
    }

    void createAlsoReplacesALeftover() {
        const auto path = freshFolder() / "new.spillway";
        writeBytes(path, "");
        writeBytes(beside(path, "-journal"), journalOfAnEmptyFile());
        try {
            QCOMPARE(Workspace::create(path).schemaVersion(), kWorkspaceSchemaVersion);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(!present(beside(path, "-journal")));
        QCOMPARE(Workspace::open(path).integrityCheck(), std::vector<std::string>{"ok"});
    }

    void createLeavesNothingButTheWorkspace() {
        // Built beside under another name and renamed into place: only the workspace remains.
        const auto folder = freshFolder();
        { auto ws = Workspace::create(folder / "w.spillway"); }
        QCOMPARE(filesIn(folder), std::vector<std::string>{"w.spillway"});
    }

    void aCreateThatCannotBuildNamesTheWorkspace() {
        // The folder is a file: the error names the workspace asked for, not the name it is
        // built under.
        const auto folder = freshFolder();
        writeBytes(folder / "not-a-folder", "x");
        const auto path = folder / "not-a-folder" / "w.spillway";
        try {
            Workspace::create(path);
            QFAIL("created a workspace inside a file");
        } catch (const WorkspaceError& e) {
            QVERIFY2(std::string(e.what()).find(path.string() + ": cannot create a workspace") == 0, e.what());
            QCOMPARE(e.file(), path.string());
        }
        QCOMPARE(filesIn(folder), std::vector<std::string>{"not-a-folder"});
    }

    // ---- 8: what holds data is never taken for a leftover

    void anotherProgramsDatabaseIsRefused() {
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("CREATE TABLE notes(text); INSERT INTO notes VALUES ('mine');");
        }
        expectRefusedUntouched(path);
    }

    void anEmptyTableIsRefused() {
        // No rows, but a table someone made: not what a killed create leaves.
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("CREATE TABLE t(x)");
        }
        expectRefusedUntouched(path);
    }

    void dataCommittedOnlyToTheWalIsRefused() {
        // The file itself has no tables yet; the committed table is in the -wal beside it.
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("PRAGMA journal_mode = WAL");
            db.keepWalOnClose();
            db.exec("CREATE TABLE notes(text); INSERT INTO notes VALUES ('mine');");
        }
        QVERIFY(std::filesystem::file_size(beside(path, "-wal")) > 0);
        expectRefusedUntouched(path);
    }

    void aFileAJournalWouldRestoreIsRefused() {
        // No tables as the file stands, but its hot journal restores two pages: only SQLite's
        // rollback can say what they hold, so the file is not taken for a leftover.
        const auto path = freshFolder() / "workspace.spillway";
        {
            RawDb db(path);
            db.exec("PRAGMA journal_mode = WAL");
        }
        writeBytes(beside(path, "-journal"), hotJournal(2));
        expectRefusedUntouched(path);
    }

    void aTextFileWithAJournalIsRefused() {
        const auto path = freshFolder() / "workspace.spillway";
        writeBytes(path, "my notes\n");
        writeBytes(beside(path, "-journal"), journalOfAnEmptyFile());
        expectRefusedUntouched(path);
    }

    void aDamagedWorkspaceIsRefused() {
        const auto path = freshFolder() / "workspace.spillway";
        { Workspace::create(path).addProfile(smallStep(), "p"); }
        const std::string whole = fileBytes(path);
        writeBytes(path, whole.substr(0, whole.size() / 2));
        expectRefusedUntouched(path);
    }

    void aShortOrTextFileIsRefused() {
        const auto folder = freshFolder();
        std::string shortFile = "SQLite format 3";  // the magic, its NUL and 3 bytes: 19 of 100
        shortFile += '\0';
        shortFile += "abc";
        writeBytes(folder / "short.spillway", shortFile);
        expectRefusedUntouched(folder / "short.spillway");
        writeBytes(folder / "notes.spillway", "my notes\n");
        expectRefusedUntouched(folder / "notes.spillway");
    }

    // ---- 9: open beside another connection's write transaction

    void openSucceedsWhileAnotherConnectionWrites() {
        const auto path = freshFolder() / "shared.spillway";
        { Workspace::create(path).setViewState("before", "1"); }
        RawDb other(path);
        other.exec("BEGIN IMMEDIATE; INSERT INTO view_state(key, value) VALUES ('other', '2');");
        // The schema is current: open() has nothing to write and must not wait for the lock.
        std::optional<Workspace> opened;
        try {
            opened.emplace(Workspace::open(path));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        Workspace& ws = *opened;
        QCOMPARE(ws.schemaVersion(), kWorkspaceSchemaVersion);
        QCOMPARE(ws.viewState("before"), std::optional<std::string>("1"));
        QCOMPARE(ws.viewState("other"), std::nullopt);  // not committed yet
        other.exec("COMMIT");
        QCOMPARE(ws.viewState("other"), std::optional<std::string>("2"));
        ws.setViewState("after", "3");  // and it writes once the lock is free
        QCOMPARE(Workspace::open(path).viewState("after"), std::optional<std::string>("3"));
    }

    void openOrCreateSucceedsWhileAnotherConnectionWrites() {
        const auto path = freshFolder() / "shared.spillway";
        { Workspace::create(path); }
        RawDb other(path);
        other.exec("BEGIN IMMEDIATE; INSERT INTO view_state(key, value) VALUES ('other', '2');");
        try {
            QCOMPARE(Workspace::openOrCreate(path).schemaVersion(), kWorkspaceSchemaVersion);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        other.exec("ROLLBACK");
    }
};

QTEST_APPLESS_MAIN(TestHostileWorkspace)
#include "tst_hostile_workspace.moc"
