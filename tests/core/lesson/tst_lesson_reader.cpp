// The lesson reader (core/lesson/lesson.h): a good file read field by field, every kind of bad
// input refused with the file, the JSON pointer (step index and field) and what was expected,
// the cumulative settings worked by hand, and every bundled lesson read and checked against its
// own profile.
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"
#include "core/lesson/lesson.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace spillway;

namespace {

std::filesystem::path write(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
    const std::filesystem::path path = std::filesystem::path(dir.path().toStdString()) / name;
    std::ofstream(path) << text;
    return path;
}

// A valid lesson around `steps`, with a profile file beside it.
std::string lessonWith(const std::string& steps, const std::string& extraTop = "") {
    return R"({"format": "spillway.lesson/1", "title": "T", "profile": "p.profile.json", )" + extraTop +
           R"("steps": )" + steps + "}";
}

const char* kGoodStep = R"({"title": "A", "text": "Some text.", "view": "memory"})";

}  // namespace

class TestLessonReader : public QObject {
    Q_OBJECT
private slots:
    void readsAGoodLessonFieldByField() {
        QTemporaryDir dir;
        write(dir, "p.profile.json", "{}");
        write(dir, "other.profile.json", "{}");
        const auto file = write(dir, "01-x.lesson.json", R"({
          "format": "spillway.lesson/1", "title": "Oversubscription", "summary": "Why it stalls.",
          "profile": "p.profile.json",
          "settings": {"preset": "g10-a100", "policy": "uvm", "gpu_memory": "150%"},
          "steps": [
            {"title": "Fits", "text": "Everything fits.", "view": "memory"},
            {"title": "Too small", "text": "Now it does not.", "view": "stalls",
             "settings": {"gpu_memory": "60%", "ssd_bandwidth": "3.2GB/s", "fault_latency": "45us"},
             "select": {"kernel": 3, "tensor": "w1", "time_range": ["1ms", "2.5ms"]},
             "compare": {"policies": ["uvm", "most", "g10+discard"]}},
            {"title": "Layout", "text": "Order.", "view": "offsets", "profile": "other.profile.json",
             "settings": {"order": "roam", "placement": "exact", "gpu_memory": "8GiB", "host_memory": "0",
                          "pcie_bandwidth": "15.754GB/s"},
             "select": {"tensor": 7},
             "compare": {"placements": ["caching-allocator", "exact"]}}
          ]})");
        const Lesson l = readLesson(file);
        QCOMPARE(l.title, std::string("Oversubscription"));
        QCOMPARE(l.summary, std::string("Why it stalls."));
        QCOMPARE(l.profile.filename().string(), std::string("p.profile.json"));
        QVERIFY(l.profile.is_absolute());
        QCOMPARE(l.steps.size(), size_t(3));
        QCOMPARE(l.steps[1].view, std::string("stalls"));
        QCOMPARE(l.steps[1].settings.gpuMemory->percentOfPeak, std::int64_t(60));
        QCOMPARE(l.steps[1].settings.gpuMemory->resolve(1000), Bytes(600));
        QCOMPARE(*l.steps[1].settings.ssdBytesPerSecond, std::int64_t(3'200'000'000));
        QCOMPARE(*l.steps[1].settings.faultLatency, Nanoseconds(45'000));
        QCOMPARE(*l.steps[1].select.kernel, std::int64_t(3));
        QCOMPARE(*l.steps[1].select.tensorName, std::string("w1"));
        QCOMPARE(*l.steps[1].select.rangeStart, Nanoseconds(1'000'000));
        QCOMPARE(*l.steps[1].select.rangeEnd, Nanoseconds(2'500'000));
        QCOMPARE(l.steps[1].compare.policies, (std::vector<std::string>{"uvm", "most", "g10+discard"}));
        QCOMPARE(*l.steps[2].select.tensorId, TensorId(7));
        QCOMPARE(*l.steps[2].settings.pcieBytesPerSecond, std::int64_t(15'754'000'000));
        QCOMPARE(*l.steps[2].settings.hostMemory, Bytes(0));
        QCOMPARE(l.profileOf(0), l.profile);
        QCOMPARE(l.profileOf(2).filename().string(), std::string("other.profile.json"));

        // Settings accumulate: step 1 keeps the lesson's preset and policy and changes the GPU;
        // step 2 sets the GPU in bytes and keeps step 1's SSD bandwidth.
        const LessonSettings s0 = effectiveLessonSettings(l, 0);
        QCOMPARE(s0.gpuMemory->percentOfPeak, std::int64_t(150));
        QVERIFY(!s0.ssdBytesPerSecond);
        const LessonSettings s1 = effectiveLessonSettings(l, 1);
        QCOMPARE(*s1.preset, std::string("g10-a100"));
        QCOMPARE(*s1.policy, std::string("uvm"));
        QCOMPARE(s1.gpuMemory->percentOfPeak, std::int64_t(60));
        const LessonSettings s2 = effectiveLessonSettings(l, 2);
        QCOMPARE(s2.gpuMemory->resolve(1000), Bytes(8) * kGiB);
        QCOMPARE(*s2.ssdBytesPerSecond, std::int64_t(3'200'000'000));
        QCOMPARE(*s2.order, std::string("roam"));
    }

    void refusesBadInput_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");    // what describe() must contain
        QTest::addColumn<QString>("message");  // what the message must contain
        const std::string good = kGoodStep;
        auto row = [](const char* name, const std::string& text, const char* where, const char* message) {
            QTest::newRow(name) << QString::fromStdString(text) << where << message;
        };
        row("bad JSON", "{\n  \"format\": \"spillway.lesson/1\",\n  \"title\" \"x\"\n}", ":3:", "invalid JSON");
        row("not an object", "[1, 2]", "/", "expected an object");
        row("wrong format", R"({"format": "spillway.profile/1", "title": "T", "profile": "p.profile.json", "steps": []})",
            "/format", "expected \"spillway.lesson/1\"");
        row("unknown top field", lessonWith("[" + good + "]", R"("author": "me", )"), "/author", "unknown field \"author\"");
        row("missing title", R"({"format": "spillway.lesson/1", "profile": "p.profile.json", "steps": [{}]})", "/title",
            "missing field \"title\"");
        row("missing profile file", R"({"format": "spillway.lesson/1", "title": "T", "profile": "nope.json", "steps": [1]})",
            "/profile", "not found");
        row("no steps", lessonWith("[]"), "/steps", "non-empty list");
        row("step not an object", lessonWith("[" + good + ", 5]"), "/steps/1", "step 2: expected an object");
        row("step without text", lessonWith(R"([{"title": "Fits", "view": "memory"}])"), "/steps/0/text",
            "step 1 (\"Fits\"): missing field \"text\"");
        row("text not a string", lessonWith(R"([{"title": "A", "text": 3, "view": "memory"}])"), "/steps/0/text",
            "must be a string");
        row("unknown view", lessonWith(R"([{"title": "A", "text": "t", "view": "pie"}])"), "/steps/0/view",
            "unknown view \"pie\"");
        row("unknown step field", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "zoom": 2}])"),
            "/steps/0/zoom", "unknown field \"zoom\"");
        row("unknown setting", lessonWith("[" + good + R"(, {"title": "B", "text": "t", "view": "memory",
            "settings": {"gpu": "8GiB"}}])"), "/steps/1/settings/gpu", "step 2 (\"B\"): unknown field \"gpu\"");
        row("unknown policy", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"policy": "lru"}}])"),
            "/steps/0/settings/policy", "unknown policy \"lru\"");
        row("unknown preset", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"preset": "h100"}}])"),
            "/steps/0/settings/preset", "unknown hardware preset");
        row("unknown order", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"order": "fifo"}}])"),
            "/steps/0/settings/order", "unknown order method");
        row("bad GPU memory", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"gpu_memory": "lots"}}])"),
            "/steps/0/settings/gpu_memory", "expected a size such as");
        row("bad percentage", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"gpu_memory": "-5%"}}])"),
            "/steps/0/settings/gpu_memory", "not a valid percentage");
        row("bad bandwidth", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "settings": {"ssd_bandwidth": "fast"}}])"),
            "/steps/0/settings/ssd_bandwidth", "expected e.g. \"3.2GB/s\"");
        row("negative kernel", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "select": {"kernel": -1}}])"),
            "/steps/0/select/kernel", "non-negative integer");
        row("reversed range", lessonWith(R"([{"title": "A", "text": "t", "view": "memory", "select": {"time_range": ["5ms", "1ms"]}}])"),
            "/steps/0/select/time_range", "end after it starts");
        row("compare one policy", lessonWith(R"([{"title": "A", "text": "t", "view": "stalls", "compare": {"policies": ["uvm"]}}])"),
            "/steps/0/compare/policies", "at least two");
        row("compare unknown placement", lessonWith(R"([{"title": "A", "text": "t", "view": "memory",
            "compare": {"placements": ["exact", "magic"]}}])"), "/steps/0/compare/placements/1", "unknown placement method \"magic\"");
    }

    void refusesBadInput() {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, message);
        QTemporaryDir dir;
        write(dir, "p.profile.json", "{}");
        const auto file = write(dir, "bad.lesson.json", text.toStdString());
        try {
            readLesson(file);
            QFAIL("a bad lesson was accepted");
        } catch (const ImportError& e) {
            const QString described = QString::fromStdString(e.location().describe());
            const QString said = QString::fromStdString(e.message());
            QVERIFY2(described.contains("bad.lesson.json"), qPrintable(described));
            QVERIFY2(described.contains(where), qPrintable(described + " lacks " + where));
            QVERIFY2(said.contains(message), qPrintable(said + " lacks " + message));
        }
    }

    void emptyAndMissingFilesAreRefused() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(ImportError, readLesson(write(dir, "e.lesson.json", "")));
        QVERIFY_THROWS_EXCEPTION(ImportError, readLesson(std::filesystem::path(dir.path().toStdString()) / "none.lesson.json"));
    }

    void selectionIsCheckedAgainstTheProfile() {
        QTemporaryDir dir;
        write(dir, "p.profile.json", "{}");
        const Lesson l = readLesson(write(dir, "s.lesson.json", lessonWith(R"([
            {"title": "K", "text": "t", "view": "memory", "select": {"kernel": 2}},
            {"title": "T", "text": "t", "view": "memory", "select": {"tensor": "b"}},
            {"title": "I", "text": "t", "view": "memory", "select": {"tensor": 11}}])")));
        Profile p;
        p.tensors.resize(2);
        p.tensors[0].id = 10;
        p.tensors[0].name = "a";
        p.tensors[1].id = 11;
        p.tensors[1].name = "b";
        p.kernels.resize(2);
        try {
            checkLessonSelection(l, 0, p);
            QFAIL("kernel 2 of 2 accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().jsonPointer, std::string("/steps/0/select/kernel"));
            QVERIFY2(std::string(e.message()).find("the profile has 2 kernels") != std::string::npos, e.what());
        }
        checkLessonSelection(l, 1, p);
        checkLessonSelection(l, 2, p);
        QCOMPARE(selectedTensorPosition(l.steps[1].select, p), std::int64_t(1));
        QCOMPARE(selectedTensorPosition(l.steps[2].select, p), std::int64_t(1));
        p.tensors[1].name = "c";
        QVERIFY_THROWS_EXCEPTION(ImportError, checkLessonSelection(l, 1, p));
        QCOMPARE(selectedTensorPosition(l.steps[1].select, p), std::int64_t(-1));
    }

    void everyBundledLessonReadsAndFitsItsProfile() {
        const auto folder = std::filesystem::path(SPILLWAY_SOURCE_DIR) / "samples" / "lessons";
        const auto files = findLessons(folder);
        QVERIFY2(files.size() >= 4, "expected the four bundled lessons");
        for (size_t i = 1; i < files.size(); ++i) QVERIFY(files[i - 1] < files[i]);
        for (const auto& file : files) {
            const Lesson l = readLesson(file);
            QVERIFY(!l.steps.empty());
            for (size_t s = 0; s < l.steps.size(); ++s) {
                const Profile p = loadProfile(l.profileOf(s));
                checkLessonSelection(l, s, p);
                const LessonSettings e = effectiveLessonSettings(l, s);
                QVERIFY2(e.preset && e.policy && e.gpuMemory, file.string().c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestLessonReader)
#include "tst_lesson_reader.moc"
