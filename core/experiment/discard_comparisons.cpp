#include "core/experiment/discard_comparisons.h"

#include "core/trace/darknet_networks.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <string>

namespace spillway::discard {

namespace {

// "uvm-opt 2.98 s = compute 1%, fault 45%, oversubscription 54%, late prefetch 0%; 50.5 GB moved"
std::string split(const SweepResult& r, size_t v, size_t p) {
    const SweepCell& c = r.at(v, p);
    if (!c.ok) return fmt::format("{} did not run ({})", c.policy, c.error);
    const double t = std::max<double>(1, double(c.iterationTime));
    auto pct = [&](Nanoseconds x) { return 100.0 * double(x) / t; };
    return fmt::format("{} {:.3f} s = compute {:.0f}%, fault {:.0f}%, oversubscription {:.0f}%, late prefetch "
                       "{:.0f}%; {:.2f} GB moved",
                       c.policy, seconds(c.iterationTime), pct(c.totals.compute), pct(c.totals.faultStall),
                       pct(c.totals.oversubStall), pct(c.totals.latePrefetchStall), gb(c.trafficBytes));
}

std::string pair(double paper3, double paper4) { return fmt::format("{:.2f} / {:.2f}", paper3, paper4); }

// Why our micro-benchmark numbers differ from the paper's, from how each is modelled.
std::string microModelNote(const std::string& id) {
    if (id == "fir")
        return "Ours is the steady state (the simulator's second run of the program): input windows the first run "
               "left on the host come back by copy under uvm-opt and are zero-filled once discarded, and the output, "
               "which the host keeps (persistent), is copied in again before it is rewritten. The paper's one run "
               "copies its 5.66 GB input in once in every column and writes back only the output that overflows. A "
               "sequential sweep larger than memory misses every block under LRU whatever the ratio, so our traffic "
               "does not grow from 200% to 400% as the paper's does.";
    if (id == "radix-sort")
        return "Ours cuts each of the paper's two kernels into 64 MiB chunks whose working set fits the GPU and runs "
               "them in order, so no kernel thrashes (the paper's touch the whole array: 300 GB at 200% for 10 GB); "
               "and only the temporary buffer is discarded: the modifier discards a buffer after its last use in the "
               "iteration, so the data buffer's dead gap between local sort and reorder (which the paper also "
               "discards) is not, the data being read again by the next pass (persistent).";
    return "Ours is the repeated join (the simulator's second iteration, the paper's 'repeated by reusing the existing "
           "buffers'): the tables are the persistent database, the partition buffers and results are discarded after "
           "their last use; the paper's totals cover two joins including the first copy of the tables.";
}

void addMicroComparisons(const MicroRun& run, std::vector<PaperComparison>& out) {
    const PaperMicro& p = *run.paper;
    const SweepResult &r3 = run.pcie[0], &r4 = run.pcie[1];
    const std::string note = microModelNote(p.id);
    out.push_back({fmt::format("{} at 200%: UvmDiscard's runtime over UVM-opt's, PCIe 3 / 4 ({})", p.name, p.runtimeTable),
                   pair(p.discard[0][1], p.discard[1][1]),
                   pair(timeRatio(r3, 1, kOptDiscard, kOpt), timeRatio(r4, 1, kOptDiscard, kOpt)),
                   note + " PCIe 3: " + split(r3, 1, kOpt) + "; " + split(r3, 1, kOptDiscard) + "."});
    out.push_back({fmt::format("{} at <100%: UvmDiscard / UvmDiscardLazy runtime over UVM-opt's, PCIe 3 ({})", p.name,
                               p.runtimeTable),
                   pair(p.discard[0][0], p.lazy[0][0]),
                   pair(timeRatio(r3, 0, kOptDiscard, kOpt), timeRatio(r3, 0, kOptLazy, kOpt)),
                   "Everything fits: eager discard pays Table 2's unmapping on the next kernel's critical path "
                   "(fault stall), lazy nothing. The paper overlaps the call with computation (7.2) but pays re-mapping "
                   "and prefaulting that we do not price, so ours costs more where kernels are short next to a "
                   "discard (FIR, Hash-join: 64 MiB per kernel) and less where they are long. " +
                       split(r3, 0, kOpt) + "; " + split(r3, 0, kOptDiscard) + "."});
    const double o = trafficGb(r3, 1, kOpt), d = trafficGb(r3, 1, kOptDiscard);
    out.push_back({fmt::format("{} at 200%: PCIe traffic UVM-opt -> UvmDiscard ({})", p.name, p.trafficTable),
                   fmt::format("{:.2f} -> {:.2f} GB ({:+.0f}%)", p.trafficOpt[1], p.trafficDiscard[1],
                               100 * (p.trafficDiscard[1] / p.trafficOpt[1] - 1)),
                   fmt::format("{:.2f} -> {:.2f} GB ({:+.0f}%)", o, d, 100 * (d / o - 1)), note});
}

std::string netList(const std::vector<DlRun>& runs, const std::function<std::string(const DlRun&)>& f) {
    std::string text;
    for (const DlRun& run : runs) text += (text.empty() ? "" : ", ") + fmt::format("{} {}", run.net->name, f(run));
    return text;
}

std::string percentChange(double now, double before) { return fmt::format("{:+.0f}%", 100.0 * (now / before - 1)); }

void addDeepLearningComparisons(const std::vector<DlRun>& runs, std::vector<PaperComparison>& out) {
    // The smallest batch of each network fits; the largest oversubscribes the most.
    out.push_back({"DL fits the GPU: UvmDiscard's throughput against UVM-opt's (7.5.1, PCIe 4)", "up to -16%",
                   netList(runs, [](const DlRun& r) {
                       return percentChange(1 / timeRatio(r.pcie[1], 0, kOptDiscard, kOpt), 1);
                   }),
                   "Ours charges only Table 2's unmapping per discarded buffer (a few to 70 us each); the paper's 16% "
                   "also counts the re-mapping its prefetches do after every eager discard and cuDNN kernels that do "
                   "not overlap the calls, which the simulator does not price. " +
                       split(runs.front().pcie[1], 0, kOpt) + "; " + split(runs.front().pcie[1], 0, kOptDiscard) + "."});
    out.push_back({"DL fits the GPU: UvmDiscardLazy against UVM-opt (7.5.1)", "negligible overhead",
                   netList(runs, [](const DlRun& r) {
                       return percentChange(1 / timeRatio(r.pcie[1], 0, kOptLazy, kOpt), 1);
                   }),
                   ""});
    out.push_back({"DL oversubscribed: traffic removed by discard at the largest batch (abstract: over 60%)",
                   "60.6% (memory-intensive CNN); over 60% across networks",
                   netList(runs, [](const DlRun& r) {
                       const size_t v = r.batches.size() - 1;
                       return fmt::format("{:.0f}%", 100 * (1 - trafficGb(r.pcie[1], v, kOptDiscard) /
                                                                     trafficGb(r.pcie[1], v, kOpt)));
                   }),
                   "What remains with discard is the weights and live activations that do not fit; what is removed is "
                   "dead buffers written back and copied in again (Fig. 5)."});
    for (size_t m : {1, 0})
        out.push_back({fmt::format("DL oversubscribed: UvmDiscard's throughput gain at the largest batch, PCIe {}",
                                   m == 0 ? 3 : 4),
                       "+23% to +61% (+61.2% on a memory-intensive CNN)",
                       netList(runs, [m](const DlRun& r) {
                           return percentChange(1 / timeRatio(r.pcie[m], r.batches.size() - 1, kOptDiscard, kOpt), 1);
                       }),
                       "Our kernels run at the roofline (0.75 of the datasheet FP32 rate), faster than Darknet's, so "
                       "the same traffic is a larger share of our step and removing it gains more. " +
                           split(runs.front().pcie[m], runs.front().batches.size() - 1, kOpt) + "; " +
                           split(runs.front().pcie[m], runs.front().batches.size() - 1, kOptDiscard) + "."});
    for (const DlRun& r : runs) {
        if (r.net != &darknet53()) continue;
        const size_t v = r.batches.size() - 1;
        out.push_back({fmt::format("Fig. 3: ResNet-53's non-redundant traffic over UVM's (batch {})", r.batches[v]),
                       "less than half",
                       fmt::format("{:.0f}%", 100 * trafficGb(r.pcie[1], v, kOptDiscard) / trafficGb(r.pcie[1], v, kOpt)),
                       ""});
    }
}

void addTable1Comparisons(const SweepResult& r, const std::vector<std::int64_t>& batches,
                          std::vector<PaperComparison>& out) {
    for (size_t v = 0; v < batches.size(); ++v) {
        const PaperTable1* p = paperTable1(batches[v]);
        if (!p || (batches[v] != 40 && batches[v] != 80)) continue;
        out.push_back({fmt::format("Table 1, VGG-16 batch {} on the GTX 1070: DarkNet-UVM -> DarkNet-Discard", batches[v]),
                       fmt::format("{:.0f} -> {:.0f} img/s, {:.0f} -> {:.0f} GB", p->uvm, p->discard, p->uvmGb, p->discardGb),
                       fmt::format("{:.0f} -> {:.0f} img/s, {:.1f} -> {:.1f} GB per step", throughput(r, v, kOpt, batches[v]),
                                   throughput(r, v, kOptDiscard, batches[v]), trafficGb(r, v, kOpt),
                                   trafficGb(r, v, kOptDiscard)),
                       fmt::format("Ours is one step; the paper's runs are ten steps (section 7.5), and ours x 10 "
                                   "is {:.0f} -> {:.0f} GB. Our roofline kernels (0.75 of 6.46 TFLOPS) are faster "
                                   "than Darknet's on this card. ",
                                   10 * trafficGb(r, v, kOpt), 10 * trafficGb(r, v, kOptDiscard)) +
                           split(r, v, kOpt) + "; " + split(r, v, kOptDiscard) + "."});
    }
}

}  // namespace

std::vector<PaperComparison> comparisons(const Runs& runs) {
    std::vector<PaperComparison> out;
    if (!runs.table1Batches.empty()) addTable1Comparisons(runs.table1, runs.table1Batches, out);
    for (const MicroRun& m : runs.micro) addMicroComparisons(m, out);
    if (!runs.dl.empty()) addDeepLearningComparisons(runs.dl, out);
    return out;
}

}  // namespace spillway::discard
