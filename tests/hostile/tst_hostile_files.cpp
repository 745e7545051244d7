// Issue 15, findings 1 and 5, and running out of memory: what Spillway does with paths that are
// not regular files. Writing to a device, a FIFO or a symbolic link writes into it (never renames
// a file over it); writing to a folder is refused. Reading a FIFO or a device is refused before it
// is opened (opening a FIFO for reading waits for a writer: every loader hung). A file too large
// for the memory left is an error naming the file, not "std::bad_alloc".
#include "tests/hostile/hostile_support.h"

#include "core/io/base/import_error.h"
#include "core/io/measured/measured_timeline.h"
#include "core/lesson/lesson.h"
#include "core/workload/workload.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace spillway;
using namespace spillway::hostile;

namespace {

const QString kProfile = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");

QStringList substituted(QStringList args, const QMap<QString, QString>& values) {
    for (QString& a : args)
        for (auto it = values.begin(); it != values.end(); ++it) a.replace(it.key(), it.value());
    return args;
}

mode_t fileTypeOf(const QString& path) {
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0) return 0;
    return st.st_mode & S_IFMT;
}

bool makeFifo(const QString& path) { return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0; }

// Both ends of a FIFO held by the test (O_RDWR never waits on Linux), with room for a whole
// output: a tool writing into it neither waits for a reader nor blocks on a full pipe.
class HeldFifo {
public:
    explicit HeldFifo(const QString& path) {
        fd_ = ::open(QFile::encodeName(path).constData(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (fd_ >= 0) ::fcntl(fd_, F_SETPIPE_SZ, 1 << 20);
    }
    ~HeldFifo() {
        if (fd_ >= 0) ::close(fd_);
    }
    HeldFifo(const HeldFifo&) = delete;
    HeldFifo& operator=(const HeldFifo&) = delete;
    bool ok() const { return fd_ >= 0; }
    // What the tool wrote, without waiting.
    QByteArray drain() {
        QByteArray bytes;
        char buffer[65536];
        for (ssize_t n; (n = ::read(fd_, buffer, sizeof buffer)) > 0;) bytes.append(buffer, n);
        return bytes;
    }

private:
    int fd_ = -1;
};

bool isJson(const QByteArray& bytes) { return nlohmann::json::accept(bytes.begin(), bytes.end()); }

}  // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString plan_;  // a plan of kProfile, for verify and spillway-replay
    QString csv_;   // a minimalloc problem

    QMap<QString, QString> placeholders(const QString& out) const {
        return {{"%profile%", kProfile}, {"%plan%", plan_}, {"%csv%", csv_}, {"%out%", out}, {"%dir%", dir_.path()}};
    }

private slots:
    void initTestCase() {
        QVERIFY2(!replayPath().isEmpty(), "SPILLWAY_REPLAY is not set (run through ctest)");
        QVERIFY(dir_.isValid());
        plan_ = dir_.filePath("tiny.plan.json");
        const CliRun r = runTool({"plan", kProfile, "--policy", "uvm", "--export", plan_});
        QVERIFY2(r.code == 0, r.err.constData());
        csv_ = dir_.filePath("problem.csv");
        QVERIFY(writeBytes(csv_, "id,lower,upper,size\n0,0,2,64\n1,1,3,32\n2,2,4,64\n"));
    }

    // ---- finding 1: writing ------------------------------------------------------------------

    void writesIntoAFifo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("json");
        QTest::newRow("simulate --json") << QStringList{"simulate", "%profile%", "--policy", "uvm", "--json", "%out%"} << true;
        QTest::newRow("simulate --chrome-trace")
            << QStringList{"simulate", "%profile%", "--policy", "uvm", "--chrome-trace", "%out%"} << true;
        QTest::newRow("convert -o --force") << QStringList{"convert", "%profile%", "-o", "%out%", "--force"} << true;
        QTest::newRow("plan --export --force")
            << QStringList{"plan", "%profile%", "--policy", "uvm", "--export", "%out%", "--force"} << true;
        QTest::newRow("plan --json") << QStringList{"plan", "%profile%", "--policy", "uvm", "--json", "%out%"} << true;
        QTest::newRow("layout -o") << QStringList{"layout", "--csv", "%csv%", "--solver", "greedy-by-size", "-o", "%out%"} << false;
        QTest::newRow("spillway-replay -o --force")
            << QStringList{"replay", "%plan%", "%profile%", "--backend", "host", "-o", "%out%", "--force"} << true;
    }

    // The FIFO stays a FIFO, its reader gets the whole output, and no NAME.part is left beside it.
    void writesIntoAFifo() {
        QFETCH(QStringList, args);
        QFETCH(bool, json);
        const QString fifo = dir_.filePath(QStringLiteral("out-%1.fifo").arg(QTest::currentDataTag()).replace(' ', '_'));
        QVERIFY(makeFifo(fifo));
        HeldFifo held(fifo);
        QVERIFY(held.ok());
        const CliRun r = runTool(substituted(args, placeholders(fifo)));
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fileTypeOf(fifo), mode_t(S_IFIFO));
        QVERIFY2(!QFile::exists(fifo + ".part"), "a .part file was left beside the FIFO");
        const QByteArray bytes = held.drain();
        QVERIFY2(!bytes.isEmpty(), "nothing arrived through the FIFO");
        if (json) QVERIFY2(isJson(bytes), bytes.left(200).constData());
    }

    // A character device (a copy of /dev/null made with mknod, so a regression cannot replace the
    // machine's own) stays a device. Needs root (CAP_MKNOD) and a folder that allows devices.
    void writesIntoACharacterDevice() {
        if (::geteuid() != 0) QSKIP("needs root to make a character device (mknod); run as root to check this");
        const QString null = dir_.filePath("null");
        if (::mknod(QFile::encodeName(null).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP("mknod is not allowed here");
        const int probe = ::open(QFile::encodeName(null).constData(), O_WRONLY | O_CLOEXEC);
        if (probe < 0) QSKIP("the temporary folder does not allow device files (nodev)");
        ::close(probe);
        for (const QStringList& args :
             {QStringList{"simulate", kProfile, "--policy", "uvm", "--json", null},
              QStringList{"simulate", kProfile, "--policy", "uvm", "--chrome-trace", null},
              QStringList{"convert", kProfile, "-o", null, "--force"}}) {
            const CliRun r = runTool(args);
            QVERIFY2(r.code == 0, r.err.constData());
            QCOMPARE(fileTypeOf(null), mode_t(S_IFCHR));
            QVERIFY(!QFile::exists(null + ".part"));
        }
    }

    // The link stays a link and the file it names gets the output, as a shell's > does.
    void writesThroughASymbolicLink() {
        const QString target = dir_.filePath("target.json");
        const QString link = dir_.filePath("link.json");
        QVERIFY(writeBytes(target, "old"));
        QVERIFY(QFile::link(target, link));
        const CliRun r = runTool({"simulate", kProfile, "--policy", "uvm", "--json", link});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fileTypeOf(link), mode_t(S_IFLNK));
        QVERIFY(isJson(readBytes(target)));
        QVERIFY(!QFile::exists(link + ".part"));

        // A link to a file not there yet: the file is made where the link points.
        const QString later = dir_.filePath("later.json");
        const QString dangling = dir_.filePath("dangling.json");
        QVERIFY(QFile::link(later, dangling));
        const CliRun again = runTool({"convert", kProfile, "-o", dangling, "--force"});
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(fileTypeOf(dangling), mode_t(S_IFLNK));
        QVERIFY(isJson(readBytes(later)));
    }

    // /dev/stdout and /proc/self/fd/N are links the kernel resolves (to "pipe:[N]" for a pipe);
    // the write goes where open() takes it. A link of our own to /proc/self/fd/1, so that a
    // regression cannot replace the machine's /dev/stdout.
    void writesThroughAProcLinkToStdout() {
        const QString link = dir_.filePath("stdout.json");
        QVERIFY(QFile::link(QStringLiteral("/proc/self/fd/1"), link));
        const CliRun r = runTool({"simulate", kProfile, "--policy", "uvm", "--json", link});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(fileTypeOf(link), mode_t(S_IFLNK));
        QVERIFY(!QFile::exists(link + ".part"));
        QVERIFY2(r.out.contains("\"policy\""), r.out.left(300).constData());
    }

    void refusesToWriteOverAFolder() {
        const QString folder = dir_.filePath("a-folder");
        QVERIFY(QDir().mkpath(folder));
        const CliRun r = runTool({"simulate", kProfile, "--policy", "uvm", "--json", folder});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(folder.toUtf8() + ": is a folder"), r.err.constData());
        QCOMPARE(fileTypeOf(folder), mode_t(S_IFDIR));
        QVERIFY(!QFile::exists(folder + ".part"));
    }

    // ---- finding 5: reading ------------------------------------------------------------------

    void refusesToReadAFifo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("info") << QStringList{"info", "%fifo%"};
        QTest::newRow("info --from spillway") << QStringList{"info", "%fifo%", "--from", "spillway"};
        QTest::newRow("info --from nsys-sqlite") << QStringList{"info", "%fifo%", "--from", "nsys-sqlite"};
        QTest::newRow("info --from torch-snapshot") << QStringList{"info", "%fifo%", "--from", "torch-snapshot"};
        QTest::newRow("validate") << QStringList{"validate", "%fifo%"};
        QTest::newRow("convert") << QStringList{"convert", "%fifo%", "-o", "%dir%/converted.json"};
        QTest::newRow("simulate") << QStringList{"simulate", "%fifo%", "--policy", "uvm"};
        QTest::newRow("simulate --hw") << QStringList{"simulate", "%profile%", "--policy", "uvm", "--hw", "%fifo%"};
        QTest::newRow("compare") << QStringList{"compare", "%fifo%"};
        QTest::newRow("plan") << QStringList{"plan", "%fifo%", "--policy", "uvm"};
        QTest::newRow("verify PLAN") << QStringList{"verify", "%fifo%", "%profile%"};
        QTest::newRow("verify PROFILE") << QStringList{"verify", "%plan%", "%fifo%"};
        QTest::newRow("layout --csv") << QStringList{"layout", "--csv", "%fifo%"};
        QTest::newRow("sweep") << QStringList{"sweep", "%fifo%", "--param", "gpu_capacity", "--values", "1GiB"};
        QTest::newRow("presets") << QStringList{"presets", "%fifo%"};
        QTest::newRow("spillway-replay PLAN")
            << QStringList{"replay", "%fifo%", "%profile%", "--backend", "host", "-o", "%dir%/m1.json"};
        QTest::newRow("spillway-replay PROFILE")
            << QStringList{"replay", "%plan%", "%fifo%", "--backend", "host", "-o", "%dir%/m2.json"};
    }

    // Exit 2 at once, naming the FIFO; nobody holds its other end, so opening it would hang.
    void refusesToReadAFifo() {
        QFETCH(QStringList, args);
        const QString fifo = dir_.filePath(QStringLiteral("in-%1.fifo").arg(QTest::currentDataTag()).replace(' ', '_'));
        QVERIFY(makeFifo(fifo));
        auto values = placeholders({});
        values["%fifo%"] = fifo;
        const CliRun r = runTool(substituted(args, values));
        QVERIFY2(r.code != -1, "hung on the FIFO");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(fifo.toUtf8() + ": not a regular file (a FIFO)"), r.err.constData());
        QCOMPARE(fileTypeOf(fifo), mode_t(S_IFIFO));
    }

    // The files of a G10 workload folder, and the profiles a workload file names, are read the
    // same way.
    void refusesAFifoInsideAFolderOrWorkload() {
        const QString g10 = dir_.filePath("g10-with-fifo");
        QVERIFY(QDir().mkpath(g10));
        QVERIFY(makeFifo(g10 + "/kernels.config"));
        QVERIFY(writeBytes(g10 + "/tensors.config", "tensor0 Is weight (global)?: 0, Size in byte: 64, Range:0--64\n"));
        const CliRun folder = runTool({"info", g10});
        QVERIFY2(folder.code != -1, "hung on the FIFO");
        QCOMPARE(folder.code, 2);
        QVERIFY2(folder.err.contains("kernels.config: not a regular file (a FIFO)"), folder.err.constData());

        const QString fifo = dir_.filePath("job.fifo");
        QVERIFY(makeFifo(fifo));
        const QString workload = dir_.filePath("fifo.workload.json");
        QVERIFY(writeBytes(workload, R"({"format": "spillway.workload/1", "hardware": "g10-a100",
            "jobs": [{"name": "a", "profile": "job.fifo", "iterations": 1}]})"));
        const CliRun jobs = runTool({"simulate", workload});
        QVERIFY2(jobs.code != -1, "hung on the FIFO");
        QCOMPARE(jobs.code, 2);
        QVERIFY2(jobs.err.contains("job.fifo: not a regular file (a FIFO)"), jobs.err.constData());
    }

    // Lessons, measured timelines and workload files are read by the app; the test holds the
    // FIFO's other end so that an unfixed reader cannot hang the suite (it would read nothing).
    void readersInTheAppRefuseAFifo() {
        const QString fifo = dir_.filePath("app.fifo");
        QVERIFY(makeFifo(fifo));
        HeldFifo held(fifo);
        QVERIFY(held.ok());
        const auto refused = [&](const std::function<void()>& read) {
            try {
                read();
            } catch (const ImportError& e) {
                return std::string(e.what()).find(fifo.toStdString() + ": not a regular file (a FIFO)") !=
                       std::string::npos;
            }
            return false;
        };
        QVERIFY(refused([&] { readLesson(fifo.toStdString()); }));
        QVERIFY(refused([&] { readMeasuredTimeline(fifo.toStdString()); }));
        QVERIFY(refused([&] { loadWorkload(fifo.toStdString()); }));
    }

    // A character device would stream forever (/dev/zero) or read as empty (/dev/null).
    void refusesToReadADevice() {
        const CliRun r = runTool({"info", "/dev/zero", "--from", "spillway"});
        QVERIFY2(r.code != -1, "read /dev/zero forever");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/dev/zero: not a regular file (a character device)"), r.err.constData());
    }

    // ---- out of memory -----------------------------------------------------------------------

    // A 2 GiB file (sparse: no disk used) read under a 512 MiB address-space limit: the read
    // cannot get its buffer. The error names the file, with spillway-cli's and spillway-replay's
    // bad-input code.
    void outOfMemoryNamesTheFile() {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves terabytes of address space: no limit on it can be set");
#endif
        const QString big = dir_.filePath("huge.profile.json");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"format": "spillway.profile/1", "metadata": {)");
            QVERIFY(f.resize(qint64(2) << 30));
        }
        const auto limited = [](const QString& program, const QStringList& args) {
            QStringList shellArgs{"-c", "ulimit -v 524288 && exec \"$0\" \"$@\"", program};
            return runProgram(QStringLiteral("/bin/sh"), shellArgs + args, kHangMs);
        };
        const CliRun info = limited(QStringLiteral(SPILLWAY_CLI_PATH), {"info", big});
        QCOMPARE(info.code, 2);
        QVERIFY2(info.err.contains(big.toUtf8() + ": out of memory reading this file"), info.err.constData());
        const CliRun replay = limited(replayPath(), {plan_, big, "--backend", "host", "-o", dir_.filePath("m3.json")});
        QCOMPARE(replay.code, 2);
        QVERIFY2(replay.err.contains(big.toUtf8() + ": out of memory reading this file"), replay.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostile_files.moc"
