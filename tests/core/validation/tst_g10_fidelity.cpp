// Fidelity against G10's published results: the G10 A100 preset with the g10-calibrated fault
// model replays the paper's workloads with uvm, deepum-lookahead, flashneuron and g10, and the
// iteration times (cycles at 1.2 GHz) are compared with G10's own numbers, read from its
// artifact files (example_results/overall_performance/all.base.txt, figure 11, and
// example_results/sensitivity_ssdbw/bert.txt, figure 18). Each must be within 10% and, per
// workload, the policies must rank as in G10. Configurations known to be further off are
// marked QEXPECT_FAIL with the reason (docs/validation.md explains each); if one starts to pass,
// the test fails so the list is kept honest.
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace spillway;

namespace {

const std::string kData = SPILLWAY_SHARED_DATA "/g10";
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTolerance = 0.10;

// Our policy id -> the column G10's scripts wrote.
const std::vector<std::pair<std::string, std::string>> kPolicies = {
    {"uvm", "lru"}, {"deepum-lookahead", "deepUM"}, {"flashneuron", "FlashNeuron"}, {"g10", "prefetch_lru"}};

// A G10 results file: a header "a | b | c", then blocks of a label line and a line of numbers
// ("inf" where the policy cannot run). Returns label -> column -> cycles.
std::map<std::string, std::map<std::string, double>> readResults(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> columns;
    {
        std::stringstream header(line);
        std::string name;
        while (std::getline(header, name, '|')) {
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            columns.push_back(name);
        }
    }
    std::map<std::string, std::map<std::string, double>> table;
    std::string label;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (label.empty()) { label = line.substr(0, line.find('|')); continue; }
        std::stringstream values(line);
        std::string v;
        for (const std::string& column : columns) {
            if (!(values >> v)) throw std::runtime_error("short line in " + path + ": " + line);
            table[label][column] = v == "inf" ? kInf : std::stod(v);
        }
        label.clear();
    }
    return table;
}

struct Workload {
    std::string name;     // as in the data tag
    std::string label;    // the block label in G10's file
    std::string results;  // which G10 file
    std::string ssd;      // SSD bandwidth override ("" = the preset's)
};

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> list = {
        {"BERT-256", "BERT", "overall", ""},   {"ViT-1280", "ViT", "overall", ""},
        {"ResNet152-1280", "ResNet152", "overall", ""},
        {"BERT-512 ssd 6.4", "6.4", "ssdbw", "6.4GB/s"},   {"BERT-512 ssd 12.8", "12.8", "ssdbw", "12.8GB/s"},
        {"BERT-512 ssd 19.2", "19.2", "ssdbw", "19.2GB/s"}, {"BERT-512 ssd 25.6", "25.6", "ssdbw", "25.6GB/s"},
        {"BERT-512 ssd 32", "32", "ssdbw", "32GB/s"},
    };
    return list;
}

const Profile& profileFor(const Workload& w) {
    static std::map<std::string, std::unique_ptr<Profile>> cache;
    const std::string key = w.results == "ssdbw" ? "BERT-512" : w.name;
    auto& slot = cache[key];
    if (!slot) {
        // G10 keeps each cuDNN workspace as an ordinary output tensor (LRU-resident after its
        // kernel, written back, faulted in next iteration); so do we here (ImportOptions).
        ImportOptions asG10;
        asG10.g10WorkspacesAsTensors = true;
        if (key == "BERT-256") slot = std::make_unique<Profile>(loadProfile(kData + "/derived/BERT_Base_256", asG10));
        else if (key == "ViT-1280") slot = std::make_unique<Profile>(loadProfile(kData + "/derived/VIT_1280", asG10));
        else if (key == "ResNet152-1280")
            slot = std::make_unique<Profile>(loadProfile(kData + "/derived/ResNet152_1280", asG10));
        else {
            ImportOptions options;
            options.batch = 512;
            options.resultsDir = kData + "/results/BERT_Base";
            slot = std::make_unique<Profile>(loadProfile(kData + "/frontend/Nets/BERT_Base.txt", options));
        }
    }
    return *slot;
}

HardwareConfig machineFor(const Workload& w) {
    HardwareConfig hw = hardwarePreset("g10-a100");
    // Figure 18: the SSD bandwidth varies, host and GPU links at 32 GB/s (data README).
    if (!w.ssd.empty())
        applyHardwareOverrides(hw, {"ssd.bandwidth=" + w.ssd, "host_to_gpu.bandwidth=32GB/s",
                                    "gpu_to_host.bandwidth=32GB/s"});
    return hw;
}

double g10Cycles(const Workload& w, const std::string& column) {
    static const auto overall = readResults(kData + "/example_results/overall_performance/all.base.txt");
    static const auto ssdbw = readResults(kData + "/example_results/sensitivity_ssdbw/bert.txt");
    const auto& table = w.results == "ssdbw" ? ssdbw : overall;
    return table.at(w.label).at(column);
}

struct Outcome {
    double cycles = kInf;  // ours; inf when the run is impossible
    bool refused = false;
    std::string why;       // SimulationResult::cannotRun
};

Outcome simulateCycles(const Workload& w, const std::string& policy) {
    static std::map<std::string, Outcome> cache;
    const std::string key = w.name + "/" + policy;
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    const Profile& profile = profileFor(w);
    const HardwareConfig hw = machineFor(w);
    const Plan plan = makePlan(policy, profile, hw);
    if (auto room = plan.notes.find("memory_for_activations"); room != plan.notes.end())
        qInfo("%s %s: planner room %s B, offloaded %s B in %s tensors, fits %s", w.name.c_str(), policy.c_str(),
              room->second.c_str(), plan.notes.at("offloaded_bytes").c_str(), plan.notes.at("offloaded_tensors").c_str(),
              plan.notes.at("fits").c_str());
    Outcome out;
    SimulationOptions options;
    options.recordTensorResidency = false;
    options.recordResidencySamples = false;
    const SimulationResult r = simulate(profile, plan, hw, options);
    // An impossible run (FlashNeuron's planner or its contiguous allocator cannot fit the
    // model) is what G10 reports as "inf".
    out.refused = !r.cannotRun.empty();
    out.why = r.cannotRun;
    // G10's artifact publishes the shorter of its two simulated iterations (gatherKernelInfo.py:
    // select_idx), the cold first one for some uvm runs; compare the same statistic.
    if (!out.refused) out.cycles = static_cast<double>(r.shortestIterationTime()) * 1.2;  // ns -> cycles
    cache[key] = out;
    return out;
}

// Outside 10% today; docs/validation.md says why. Data tag -> reason.
const std::map<std::string, const char*>& knownOff() {
    static const std::map<std::string, const char*> list = {};
    return list;
}

}  // namespace

class TestG10Fidelity : public QObject {
    Q_OBJECT
private slots:
    void iterationTimeWithinTenPercent_data() {
        QTest::addColumn<int>("workload");
        QTest::addColumn<QString>("policy");
        for (int i = 0; i < static_cast<int>(workloads().size()); ++i)
            for (const auto& [policy, column] : kPolicies)
                QTest::newRow((workloads()[i].name + " " + policy).c_str()) << i << QString::fromStdString(policy);
    }

    void iterationTimeWithinTenPercent() {
        QFETCH(int, workload);
        QFETCH(QString, policy);
        const Workload& w = workloads()[workload];
        const std::string id = policy.toStdString();
        const std::string column =
            std::find_if(kPolicies.begin(), kPolicies.end(), [&](const auto& p) { return p.first == id; })->second;
        const double theirs = g10Cycles(w, column);
        const Outcome ours = simulateCycles(w, id);
        if (std::isinf(theirs)) {
            // G10 cannot run it; ours must say so too (FlashNeuron: what stays does not fit).
            qInfo("%s %s: G10 inf, ours %s (%.4g cycles) %s", w.name.c_str(), id.c_str(),
                  ours.refused ? "cannot run" : "runs", ours.cycles, ours.why.c_str());
            if (auto it = knownOff().find(w.name + " " + id); it != knownOff().end()) QEXPECT_FAIL("", it->second, Continue);
            QVERIFY2(ours.refused, "G10 cannot run this configuration; our planner should refuse it too");
            return;
        }
        // G10 runs it; ours must too.
        QVERIFY2(!ours.refused, ours.why.c_str());
        const double error = (ours.cycles - theirs) / theirs;
        qInfo("%s %s: ours %.6g, G10 %.6g cycles, error %+.1f%%", w.name.c_str(), id.c_str(), ours.cycles, theirs,
              100 * error);
        const std::string tag = w.name + " " + id;
        if (auto it = knownOff().find(tag); it != knownOff().end()) QEXPECT_FAIL("", it->second, Continue);
        QVERIFY2(std::abs(error) <= kTolerance,
                 qPrintable(QString("%1: %2% off G10").arg(QString::fromStdString(tag)).arg(100 * error, 0, 'f', 1)));
    }

    // Per workload, the policies that G10 could run rank the same way in both simulators.
    void policiesRankAsInG10_data() {
        QTest::addColumn<int>("workload");
        for (int i = 0; i < static_cast<int>(workloads().size()); ++i)
            QTest::newRow(workloads()[i].name.c_str()) << i;
    }

    void policiesRankAsInG10() {
        QFETCH(int, workload);
        const Workload& w = workloads()[workload];
        std::vector<std::pair<double, std::string>> theirs, ours;
        for (const auto& [policy, column] : kPolicies) {
            const double g10 = g10Cycles(w, column);
            if (std::isinf(g10)) continue;
            theirs.push_back({g10, policy});
            ours.push_back({simulateCycles(w, policy).cycles, policy});
        }
        std::sort(theirs.begin(), theirs.end());
        std::sort(ours.begin(), ours.end());
        QString a, b;
        for (const auto& p : theirs) a += QString::fromStdString(p.second) + " ";
        for (const auto& p : ours) b += QString::fromStdString(p.second) + " ";
        qInfo("%s: G10 order %s| ours %s", w.name.c_str(), qPrintable(a), qPrintable(b));
        QCOMPARE(b, a);
    }
};

QTEST_GUILESS_MAIN(TestG10Fidelity)
#include "tst_g10_fidelity.moc"
