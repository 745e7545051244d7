// UVM Discard end to end, as in the paper's tables: a pipeline whose intermediate buffers die
// right after the next kernel reads them. Under oversubscription plain UVM writes dead buffers
// back to the host and copies them in again before they are overwritten (redundant memory
// transfers); discarding them saves that traffic. When everything fits there is nothing to
// save, and the eager variant's unmapping only costs time, the lazy one (almost) nothing.
#include "core/policy/planner.h"
#include "core/sim/sim_result_json.h"
#include "core/sim/simulator.h"
#include "tests/support/discard_pipeline.h"

#include <QtTest>

using namespace spillway;

namespace {

Profile pipeline() { return test::discardPipeline(); }
HardwareConfig machine(Bytes gpu) { return test::discardPipelineMachine(gpu); }

SimulationResult run(const char* policy, const Profile& p, const HardwareConfig& hw) {
    return simulate(p, makePlan(policy, p, hw), hw);
}

Bytes writeBack(const SimulationResult& r) { return r.traffic[static_cast<int>(LinkId::GpuToHost)]; }
Bytes copyIn(const SimulationResult& r) { return r.traffic[static_cast<int>(LinkId::HostToGpu)]; }

}  // namespace

class TestDiscardSimulation : public QObject {
    Q_OBJECT
private slots:
    void savesRedundantTransfersUnderOversubscription() {
        // 512 MiB for 1152 MiB: 225% oversubscribed.
        const auto p = pipeline();
        const auto hw = machine(512 * kMiB);
        const auto uvm = run("uvm", p, hw);
        QVERIFY(writeBack(uvm) > 0);  // plain UVM writes dead buffers back
        for (const char* policy : {"uvm+discard", "uvm+discard-lazy"}) {
            const auto r = run(policy, p, hw);
            qInfo("%s: %lld us (uvm %lld us), write-back %lld MiB (uvm %lld), copy-in %lld MiB (uvm %lld), "
                  "saved %lld MiB",
                  policy, static_cast<long long>(r.iterationTime / 1000), static_cast<long long>(uvm.iterationTime / 1000),
                  static_cast<long long>(writeBack(r) / kMiB), static_cast<long long>(writeBack(uvm) / kMiB),
                  static_cast<long long>(copyIn(r) / kMiB), static_cast<long long>(copyIn(uvm) / kMiB),
                  static_cast<long long>(r.discardSavedBytes / kMiB));
            // The saving is exactly the traffic the same plan moves without its discards.
            QCOMPARE(r.discardSavedBytes, writeBack(uvm) + copyIn(uvm) - writeBack(r) - copyIn(r));
            QVERIFY2(r.discardSavedBytes > 0, policy);
            QVERIFY2(writeBack(r) < writeBack(uvm), policy);
            QVERIFY2(writeBack(r) + copyIn(r) < writeBack(uvm) + copyIn(uvm), policy);
            // Less traffic on the critical path: the iteration is faster, as in the paper's
            // oversubscribed columns.
            QVERIFY2(r.iterationTime < uvm.iterationTime, policy);
            QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
        }
    }

    void discardedBuffersAreShownAsDiscardedNotAbsent() {
        // Everything fits (4 GiB), so under plain UVM a buffer stays on the GPU once written. With
        // eager discards, B5 is dropped after kernel 5 reads it: its residency must say
        // "discarded" (no copy anywhere because of a discard), not "absent" (freed or unwritten),
        // which is what the Gantt chart draws. The weight is never discarded.
        const auto p = pipeline();
        const auto hw = machine(4 * kGiB);
        auto hasDiscarded = [](const std::vector<ResidencyInterval>& intervals) {
            return std::any_of(intervals.begin(), intervals.end(),
                               [](const ResidencyInterval& iv) { return iv.where == Residence::Discarded; });
        };
        const std::size_t w = 0, b5 = 6;  // positions in Profile::tensors
        QCOMPARE(p.tensors[b5].name, std::string("B5"));
        const auto uvm = run("uvm", p, hw);
        for (const auto& intervals : uvm.tensorResidency) QVERIFY(!hasDiscarded(intervals));
        for (const char* policy : {"uvm+discard", "uvm+discard-lazy"}) {
            const auto r = run(policy, p, hw);
            QVERIFY(!hasDiscarded(r.tensorResidency[w]));
            if (std::string(policy) == "uvm+discard") {
                QVERIFY2(hasDiscarded(r.tensorResidency[b5]), policy);
            } else {
                // Lazy: the pages stay mapped until memory is needed, and here it never is.
                QVERIFY2(!hasDiscarded(r.tensorResidency[b5]), policy);
            }
            // Stored and read back, the new residence keeps its meaning.
            QCOMPARE(simulationResultFromJson(simulationResultToJson(r), "test").tensorResidency, r.tensorResidency);
        }
        // A result written before "discarded" existed (five residence names) still reads.
        auto older = simulationResultToJson(uvm);
        bool legendFound = false;
        for (auto& [key, value] : older.items())
            if (value.is_object() && value.contains("residences")) {
                value["residences"].erase(value["residences"].size() - 1);
                legendFound = true;
            }
        QVERIFY(legendFound);
        QCOMPARE(simulationResultFromJson(older, "older").tensorResidency, uvm.tensorResidency);
    }

    void eagerDiscardCostsTimeWhenEverythingFits() {
        // 4 GiB: nothing is evicted, so there is no transfer to save; the eager variant still
        // unmaps every discarded buffer on the critical path (15 buffers of 32 blocks), the lazy
        // one only flips a dirty bit.
        const auto p = pipeline();
        const auto hw = machine(4 * kGiB);
        const auto uvm = run("uvm", p, hw);
        const auto eager = run("uvm+discard", p, hw);
        const auto lazy = run("uvm+discard-lazy", p, hw);
        qInfo("fits: uvm %lld us, eager %lld us, lazy %lld us; traffic uvm %lld MiB, eager %lld, lazy %lld; "
              "discardSavedBytes eager %lld MiB, lazy %lld MiB",
              static_cast<long long>(uvm.iterationTime / 1000), static_cast<long long>(eager.iterationTime / 1000),
              static_cast<long long>(lazy.iterationTime / 1000),
              static_cast<long long>((writeBack(uvm) + copyIn(uvm)) / kMiB),
              static_cast<long long>((writeBack(eager) + copyIn(eager)) / kMiB),
              static_cast<long long>((writeBack(lazy) + copyIn(lazy)) / kMiB),
              static_cast<long long>(eager.discardSavedBytes / kMiB), static_cast<long long>(lazy.discardSavedBytes / kMiB));
        // Nothing is moved with or without discard (the paper's "<100%" columns: same traffic).
        QCOMPARE(writeBack(uvm) + copyIn(uvm), Bytes(0));
        QCOMPARE(writeBack(eager) + copyIn(eager), Bytes(0));
        QCOMPARE(writeBack(lazy) + copyIn(lazy), Bytes(0));
        // Nothing would have moved without the discards either: nothing is saved.
        QCOMPARE(eager.discardSavedBytes, Bytes(0));
        QCOMPARE(lazy.discardSavedBytes, Bytes(0));
        QVERIFY(eager.iterationTime > uvm.iterationTime);
        QVERIFY(lazy.iterationTime < eager.iterationTime);
        // The eager overhead is at least the unmapping of 15 discards of 32 blocks each.
        const auto perDiscard = discardUnmapTime(hw, 32, 32 * hw.blockSize);
        QVERIFY(perDiscard > 0);
        QVERIFY(eager.iterationTime - uvm.iterationTime >= 15 * perDiscard);
    }
};

QTEST_GUILESS_MAIN(TestDiscardSimulation)
#include "tst_discard_simulation.moc"
