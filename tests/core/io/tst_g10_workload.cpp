// importG10Workload: a derived/<Model>_<B>/ folder, the two configs plus the four
// cudnn<B>*.txt measurements, which override the configs' cycles.
#include "tst_g10_support.h"

#include "core/io/g10/g10_import.h"
#include "core/io/profile_loader.h"
#include "core/trace/validate.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace spillway;
using namespace g10test;

class TestG10Workload : public QObject {
    Q_OBJECT

private:
    // A copy of a derived folder with only the named files.
    static bool copyInto(const QTemporaryDir& dir, const QString& derived, const QStringList& files) {
        for (const auto& f : files)
            if (!QFile::copy(dataPath(derived + "/" + f), dir.filePath(f))) return false;
        return true;
    }

private slots:
    void measurementsOverrideTheConfigs_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("batch");
        QTest::newRow("bert") << "derived/BERT_Base_256" << 256;
        QTest::newRow("vit") << "derived/VIT_1280" << 1280;
        QTest::newRow("resnet") << "derived/ResNet152_1280" << 1280;
    }

    void measurementsOverrideTheConfigs() {
        QFETCH(QString, folder);
        QFETCH(int, batch);
        const auto p = importG10Workload(dataPath(folder).toStdString());
        QCOMPARE(p.metadata.batch, batch);
        QCOMPARE(QString::fromStdString(p.metadata.source), QStringLiteral("g10-workload"));
        QCOMPARE(QString::fromStdString(p.metadata.device), QStringLiteral("NVIDIA A100 (G10 measurements)"));
        const auto prefix = dataPath(folder + QStringLiteral("/cudnn%1").arg(batch));
        const auto ideal = oracleMeasurements(prefix + ".txt");
        const auto pf = oracleMeasurements(prefix + "PF.txt");
        const auto inputPf = oracleMeasurements(prefix + "InputPF.txt");
        const auto ws = oracleMeasurements(prefix + "Workspace.txt");
        QCOMPARE(p.kernels.size(), ideal.size());
        for (size_t k = 0; k < ideal.size(); ++k) {
            const auto& kernel = p.kernels[k];
            const auto resident = std::llround(ideal[k] * 1e6);
            QCOMPARE(kernel.duration, resident);
            // G10 raises fault times below the previous one when it loads them.
            const auto outputs = std::max<qint64>(std::llround(inputPf[k] * 1e6), resident);
            QCOMPARE(kernel.timeOutputsFaulted.value(), outputs);
            QCOMPARE(kernel.timeAllFaulted.value(), std::max<qint64>(std::llround(pf[k] * 1e6), outputs));
            QCOMPARE(kernel.workspaceBytes, static_cast<Bytes>(ws[k]));
        }
        const auto problems = validateProfile(p);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    }

    void modelNameComesFromTheFolder() {
        const auto p = importG10Workload(dataPath("derived/BERT_Base_256").toStdString());
        QCOMPARE(QString::fromStdString(p.metadata.model), QStringLiteral("BERT_Base"));
        QCOMPARE(QString::fromStdString(p.jobs.at(0).name), QStringLiteral("BERT_Base"));
        QCOMPARE(p.jobs.at(0).id, JobId(0));
    }

    void sameProfileAsTheExpandedGraph() {
        // The graph path (G10's rules re-implemented) and the configs path (G10's output) meet.
        const auto fromFolder = importG10Workload(dataPath("derived/BERT_Base_256").toStdString());
        const auto fromGraph = importG10Graph(dataPath("frontend/Nets/BERT_Base.txt").toStdString(), 256,
                                              std::filesystem::path(dataPath("results/BERT_Base").toStdString()));
        QCOMPARE(fromGraph.kernels.size(), fromFolder.kernels.size());
        for (size_t k = 0; k < fromGraph.kernels.size(); ++k) {
            auto a = fromGraph.kernels[k];
            auto b = fromFolder.kernels[k];
            // G10 prints its tensor sets in hash order.
            std::sort(a.inputs.begin(), a.inputs.end());
            std::sort(b.inputs.begin(), b.inputs.end());
            std::sort(a.outputs.begin(), a.outputs.end());
            std::sort(b.outputs.begin(), b.outputs.end());
            QCOMPARE(a, b);
        }
        QCOMPARE(fromGraph.tensors.size(), fromFolder.tensors.size());
        for (size_t i = 0; i < fromGraph.tensors.size(); ++i) {
            QCOMPARE(fromGraph.tensors[i].id, fromFolder.tensors[i].id);
            QCOMPARE(fromGraph.tensors[i].bytes, fromFolder.tensors[i].bytes);
            QCOMPARE(name(fromGraph.tensors[i].kind), name(fromFolder.tensors[i].kind));
        }
    }

    void missingMeasurementsAreAllowedAndNoted() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyInto(dir, "derived/VIT_1280", {"kernels.config", "tensors.config"}));
        const auto p = importG10Workload(dir.path().toStdString());
        const auto configs = importG10Configs(dataPath("derived/VIT_1280/kernels.config").toStdString());
        QCOMPARE(p.kernels, configs.kernels);
        QVERIFY(p.metadata.notes.contains("g10.measurements"));
        QCOMPARE(p.metadata.batch, 0);  // the temporary folder's name carries none
    }

    void aPartialSetIsAnError() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyInto(dir, "derived/BERT_Base_256",
                         {"kernels.config", "tensors.config", "cudnn256.txt", "cudnn256PF.txt"}));
        try {
            importG10Workload(dir.path().toStdString());
            QFAIL("a partial measurement set was accepted");
        } catch (const ImportError& e) {
            const auto message = QString::fromStdString(e.message());
            QVERIFY2(message.contains(QStringLiteral("cudnn256InputPF.txt")), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("cudnn256Workspace.txt")), qPrintable(message));
            QVERIFY(!message.contains(QStringLiteral("cudnn256PF.txt,")));
        }
    }

    void measurementsOfSeveralBatchesAreAnError() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyInto(dir, "derived/BERT_Base_256", {"kernels.config", "tensors.config"}));
        for (const auto& f : {"cudnn256.txt", "cudnn256PF.txt", "cudnn256InputPF.txt", "cudnn256Workspace.txt",
                              "cudnn512.txt", "cudnn512PF.txt", "cudnn512InputPF.txt", "cudnn512Workspace.txt"})
            QVERIFY(QFile::copy(dataPath(QStringLiteral("results/BERT_Base/") + f), dir.filePath(f)));
        QVERIFY_THROWS_EXCEPTION(ImportError, importG10Workload(dir.path().toStdString()));
    }

    void aWorkspaceThatDisagreesWithTheConfigsIsAnError() {
        // ResNet's kernel 1 has a 114048 B workspace (a 114688 B tensor in kernels.config).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyInto(dir, "derived/ResNet152_1280",
                         {"kernels.config", "tensors.config", "cudnn1280.txt", "cudnn1280PF.txt",
                          "cudnn1280InputPF.txt"}));
        const auto ws = readAll(dataPath("derived/ResNet152_1280/cudnn1280Workspace.txt"));
        QVERIFY(ws.split('\n')[1] == "0001 114048 B");
        QVERIFY(writeAll(dir.filePath("cudnn1280Workspace.txt"), replaceLine(ws, 2, "0001 999999 B")));
        expectImportError([&] { importG10Workload(dir.path().toStdString()); },
                          QStringLiteral("cudnn1280Workspace.txt"), 2, QStringLiteral("kernel 1"));
    }

    void workspacesCanStayTensorsAsInG10() {
        // G10 models each cuDNN workspace as an output tensor of its kernel; with the option the
        // import keeps them so (and no kernel also carries workspaceBytes), otherwise they fold.
        const auto path = dataPath("derived/ResNet152_1280").toStdString();
        ImportOptions asG10;
        asG10.g10WorkspacesAsTensors = true;
        const Profile folded = loadProfile(path);
        const Profile kept = loadProfile(path, asG10);
        QCOMPARE(kept.kernels.size(), folded.kernels.size());
        Bytes foldedBytes = 0;
        std::int64_t withWorkspace = 0;
        for (const Kernel& k : folded.kernels) {
            foldedBytes += k.workspaceBytes;
            withWorkspace += k.workspaceBytes > 0;
        }
        QVERIFY(withWorkspace > 0);
        for (const Kernel& k : kept.kernels) QCOMPARE(k.workspaceBytes, Bytes{0});
        // One extra tensor per folded workspace; kernel 1 writes its 114688 B one (tensor2903).
        QCOMPARE(kept.tensors.size() - folded.tensors.size(), static_cast<size_t>(withWorkspace));
        QCOMPARE(kept.kernels[1].outputs.size(), folded.kernels[1].outputs.size() + 1);
        Bytes keptExtra = 0;
        for (size_t t = folded.tensors.size(); t < kept.tensors.size(); ++t) keptExtra += kept.tensors[t].bytes;
        QVERIFY(keptExtra >= foldedBytes);  // page-rounded tensor sizes vs measured workspaces
        QVERIFY(keptExtra - foldedBytes < withWorkspace * Bytes{4096});
        QVERIFY(QString::fromStdString(kept.metadata.notes.at("g10.workspace")).contains("kept as tensors"));
        const auto problems = validateProfile(kept);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    }

    void theLoaderDetectsAWorkloadFolder() {
        const auto path = dataPath("derived/BERT_Base_256").toStdString();
        QCOMPARE(detectProfileFormat(path), std::string("g10-workload"));
        QCOMPARE(loadProfile(path).kernels, importG10Workload(path).kernels);
    }
};

QTEST_GUILESS_MAIN(TestG10Workload)
#include "tst_g10_workload.moc"
