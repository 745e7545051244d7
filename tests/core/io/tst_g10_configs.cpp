// importG10Configs on the three real workloads G10's simulator printed (BERT_Base 256,
// VIT 1280, ResNet152 1280): kernels.config + tensors.config only, no measurements.
#include "tst_g10_support.h"

#include "core/io/g10/g10_import.h"
#include "core/io/g10/g10_model.h"
#include "core/io/profile_loader.h"
#include "core/trace/validate.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace spillway;
using namespace g10test;

class TestG10Configs : public QObject {
    Q_OBJECT

private slots:
    void readsEveryDerivedWorkload_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("batch");
        QTest::addColumn<QString>("workspaceFile");
        QTest::newRow("bert") << "derived/BERT_Base_256" << "BERT_Base" << 256 << "cudnn256Workspace.txt";
        QTest::newRow("vit") << "derived/VIT_1280" << "VIT" << 1280 << "cudnn1280Workspace.txt";
        QTest::newRow("resnet") << "derived/ResNet152_1280" << "ResNet152" << 1280 << "cudnn1280Workspace.txt";
    }

    void readsEveryDerivedWorkload() {
        QFETCH(QString, folder);
        QFETCH(QString, model);
        QFETCH(int, batch);
        QFETCH(QString, workspaceFile);
        const auto p = importG10Configs(dataPath(folder + "/kernels.config").toStdString());
        const auto oracle = readOracleKernels(dataPath(folder + "/kernels.config"));
        QCOMPARE(p.kernels.size(), oracle.size());
        QCOMPARE(QString::fromStdString(p.metadata.model), model);
        QCOMPARE(p.metadata.batch, batch);
        QCOMPARE(QString::fromStdString(p.metadata.source), QStringLiteral("g10-configs"));
        QCOMPARE(QString::fromStdString(p.metadata.device), QStringLiteral("NVIDIA A100 (G10 measurements)"));
        QCOMPARE(p.jobs.size(), size_t(1));
        QCOMPARE(QString::fromStdString(p.jobs[0].name), model);

        // Workspace tensors become workspaceBytes exactly where G10 measured a workspace.
        const auto ws = oracleMeasurements(dataPath(folder + "/" + workspaceFile));
        QCOMPARE(ws.size(), oracle.size());
        std::set<qint64> workspaceTensors;
        for (size_t k = 0; k < oracle.size(); ++k) {
            const auto& got = p.kernels[k];
            QCOMPARE(QString::fromStdString(got.name), oracle[k].name);
            // ns = cycles / 1.2, rounded.
            QCOMPARE(got.duration, static_cast<Nanoseconds>(std::llround(double(oracle[k].cycles) / 1.2)));
            QCOMPARE(got.workspaceBytes, roundUpToG10Page(static_cast<Bytes>(ws[k])));
            QCOMPARE(got.inputs.size(), oracle[k].inputs.size());
            QCOMPARE(got.outputs.size() + (ws[k] > 0 ? 1 : 0), oracle[k].outputs.size());
            for (size_t j = 0; j < got.inputs.size(); ++j) QCOMPARE(got.inputs[j], oracle[k].inputs[j].id);
            if (ws[k] > 0) {
                // G10 prints the workspace among the outputs; it is the one we dropped.
                for (const auto& t : oracle[k].outputs)
                    if (std::find(got.outputs.begin(), got.outputs.end(), t.id) == got.outputs.end())
                        workspaceTensors.insert(t.id);
            }
        }
        QCOMPARE(workspaceTensors.size(), size_t(std::count_if(ws.begin(), ws.end(), [](double v) { return v > 0; })));
        for (const auto& t : p.tensors) QVERIFY(!workspaceTensors.contains(t.id));

        // Nothing else is lost: tensors plus folded workspaces add up to tensors.config.
        Bytes folded = 0;
        for (const auto& k : p.kernels) folded += k.workspaceBytes;
        QCOMPARE(p.totalTensorBytes() + folded, oracleFootprint(dataPath(folder + "/tensors.config")));

        const auto problems = validateProfile(p);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
    }

    void weightsArePersistentAndKindsFollowFirstWriter() {
        const auto p = importG10Configs(dataPath("derived/ResNet152_1280/kernels.config").toStdString());
        const auto oracle = readOracleKernels(dataPath("derived/ResNet152_1280/kernels.config"));
        std::set<qint64> weights;
        for (const auto& k : oracle)
            for (const auto& t : k.inputs)
                if (t.weight) weights.insert(t.id);
        QVERIFY(!weights.empty());
        for (const auto& t : p.tensors) {
            QCOMPARE(t.kind == TensorKind::Weight, weights.contains(t.id));
            QCOMPARE(t.persistent, t.kind == TensorKind::Weight);
        }
        // LoadData_A0 opens the forward pass and writes the input batch: an activation.
        QCOMPARE(p.kernels[0].name, std::string("LoadData_A0"));
        QCOMPARE(name(p.kernels[0].phase), name(KernelPhase::Forward));
        QCOMPARE(name(p.tensors[size_t(p.kernels[0].outputs[0])].kind), name(TensorKind::Activation));
        QCOMPARE(p.kernels[1].op, std::string("Conv2d"));
    }

    void loaderReadsTheConfigsOfAFolderWhenAsked() {
        // --from g10-configs on a workload folder ignores its measurements.
        ImportOptions options;
        options.format = "g10-configs";
        const auto viaLoader = loadProfile(dataPath("derived/VIT_1280").toStdString(), options);
        const auto direct = importG10Configs(dataPath("derived/VIT_1280/kernels.config").toStdString());
        QCOMPARE(viaLoader.kernels, direct.kernels);
        QCOMPARE(viaLoader.kernels.front().op, std::string("Convolution"));
        QVERIFY(!viaLoader.kernels.front().timeAllFaulted.has_value());
    }
};

QTEST_GUILESS_MAIN(TestG10Configs)
#include "tst_g10_configs.moc"
