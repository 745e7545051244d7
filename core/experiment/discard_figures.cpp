#include "core/experiment/discard_figures.h"

#include "core/hardware/hardware_presets.h"
#include "core/trace/darknet_training_graph.h"
#include "core/trace/discard_gpus.h"

#include <fmt/format.h>

#include <array>
#include <string>
#include <utility>

namespace spillway::discard {

namespace {

FigureTable microRuntimeTable(const MicroRun& run) {
    FigureTable t;
    t.id = run.paper->runtimeTable;
    t.title = run.paper->runtimeTitle;
    t.xLabel = "oversubscription, PCIe";
    t.yLabel = "runtime over uvm-opt's";
    t.series = {"uvm-opt+discard", "uvm-opt+discard-lazy", "uvm", "uvm+discard", "uvm+discard-lazy",
                "paper UvmDiscard", "paper UvmDiscardLazy"};
    const size_t ours[] = {kOptDiscard, kOptLazy, kUvm, kUvmDiscard, kUvmLazy};
    t.values.assign(t.series.size(), {});
    for (size_t m = 0; m < 2; ++m)
        for (size_t v = 0; v < kRatios.size(); ++v) {
            t.groups.push_back(fmt::format("{} PCIe-{}", kRatioNames[v], m == 0 ? 3 : 4));
            for (size_t s = 0; s < 5; ++s) t.values[s].push_back(timeRatio(run.pcie[m], v, ours[s], kOpt));
            t.values[5].push_back(run.paper->discard[m][v]);
            t.values[6].push_back(run.paper->lazy[m][v]);
        }
    t.caption = fmt::format("Steady-state iteration time of {} over uvm-opt's at the same GPU memory, ours beside the "
                            "paper's (1 = as fast as UVM-opt; below 1 is faster).", run.paper->name);
    return t;
}

FigureTable microTrafficTable(const MicroRun& run) {
    FigureTable t;
    t.id = run.paper->trafficTable;
    t.title = run.paper->trafficTitle;
    t.xLabel = "oversubscription";
    t.yLabel = "PCIe traffic (GB)";
    t.series = {"uvm-opt", "uvm-opt+discard", "uvm-opt+discard-lazy", "uvm",
                "paper UVM-opt", "paper UvmDiscard", "paper UvmDiscardLazy"};
    t.values.assign(t.series.size(), {});
    for (size_t v = 0; v < kRatios.size(); ++v) {
        t.groups.push_back(kRatioNames[v]);
        const size_t ours[] = {kOpt, kOptDiscard, kOptLazy, kUvm};
        for (size_t s = 0; s < 4; ++s) t.values[s].push_back(trafficGb(run.pcie[0], v, ours[s]));
        t.values[4].push_back(run.paper->trafficOpt[v]);
        t.values[5].push_back(run.paper->trafficDiscard[v]);
        t.values[6].push_back(run.paper->trafficLazy[v]);
    }
    t.caption = fmt::format("Bytes over PCIe (both directions, PCIe 3) in one steady-state iteration of {} ({:.2f} GB "
                            "footprint), ours beside the paper's whole run.", run.paper->name, gb(run.footprint));
    return t;
}

// Figs. 6 and 7: images per second per network and batch; "no-uvm" (everything resident, only
// when the footprint fits) is the kernels' own time.
FigureTable throughputFigure(const std::vector<DlRun>& runs, size_t m, Bytes capacity) {
    FigureTable t;
    t.id = m == 0 ? "fig7" : "fig6";
    t.title = fmt::format("Fig. {}: training throughput with PCIe-{}", m == 0 ? 7 : 6, m == 0 ? 3 : 4);
    t.xLabel = "network, batch";
    t.yLabel = "images per second";
    t.series = {"no-uvm", "uvm-opt", "uvm-opt+discard", "uvm-opt+discard-lazy", "uvm"};
    const size_t ours[] = {kOpt, kOptDiscard, kOptLazy, kUvm};
    t.values.assign(t.series.size(), {});
    t.why.assign(t.series.size(), {});
    for (const DlRun& run : runs)
        for (size_t v = 0; v < run.batches.size(); ++v) {
            t.groups.push_back(fmt::format("{} {}", run.net->name, run.batches[v]));
            const bool fits = run.footprints[v] <= capacity;
            t.values[0].push_back(fits ? double(run.batches[v]) / seconds(run.computeTimes[v]) : kNaN);
            t.why[0].push_back(fits ? "" : "does not fit the GPU without UVM");
            for (size_t s = 0; s < 4; ++s) {
                t.values[s + 1].push_back(throughput(run.pcie[m], v, ours[s], run.batches[v]));
                t.why[s + 1].push_back(run.pcie[m].at(v, ours[s]).error);
            }
        }
    t.caption = "Images per second of one steady-state training step on the 3080 Ti (11.77 GiB), generated Darknet "
                "networks with roofline kernel times; no-uvm only where the footprint fits.";
    return t;
}

FigureTable trafficFigure(const std::vector<DlRun>& runs) {
    FigureTable t;
    t.id = "fig5";
    t.title = "Fig. 5: PCIe traffic in deep learning";
    t.xLabel = "network, batch";
    t.yLabel = "PCIe traffic per step (GB)";
    t.series = {"uvm-opt", "uvm-opt+discard", "uvm-opt+discard-lazy", "uvm"};
    const size_t ours[] = {kOpt, kOptDiscard, kOptLazy, kUvm};
    t.values.assign(t.series.size(), {});
    for (const DlRun& run : runs)
        for (size_t v = 0; v < run.batches.size(); ++v) {
            t.groups.push_back(fmt::format("{} {}", run.net->name, run.batches[v]));
            for (size_t s = 0; s < 4; ++s) t.values[s].push_back(trafficGb(run.pcie[1], v, ours[s]));
        }
    t.caption = "Bytes over PCIe (both directions) in one steady-state training step, PCIe 4.";
    return t;
}

std::array<FigureTable, 2> table1Figures(const SweepResult& r, const std::vector<std::int64_t>& batches) {
    std::array<FigureTable, 2> t;
    t[0].id = "table1";
    t[0].title = "Table 1: VGG-16 training throughput on the GTX 1070";
    t[0].yLabel = "images per second";
    t[1].id = "table1-traffic";
    t[1].title = "Table 1: VGG-16 PCIe traffic on the GTX 1070";
    t[1].yLabel = "PCIe traffic per step (GB)";
    for (auto& f : t) {
        f.xLabel = "batch";
        f.series = {"uvm-opt", "uvm-opt+discard", "uvm-opt+discard-lazy", "uvm", "paper DarkNet-UVM",
                    "paper DarkNet-Discard", "paper PyTorch-LMS"};
        f.values.assign(f.series.size(), {});
    }
    const size_t ours[] = {kOpt, kOptDiscard, kOptLazy, kUvm};
    for (size_t v = 0; v < batches.size(); ++v) {
        const PaperTable1* paper = paperTable1(batches[v]);
        for (auto& f : t) f.groups.push_back(std::to_string(batches[v]));
        for (size_t s = 0; s < 4; ++s) {
            t[0].values[s].push_back(throughput(r, v, ours[s], batches[v]));
            t[1].values[s].push_back(trafficGb(r, v, ours[s]));
        }
        t[0].values[4].push_back(paper ? paper->uvm : kNaN);
        t[0].values[5].push_back(paper ? paper->discard : kNaN);
        t[0].values[6].push_back(paper ? paper->lms : kNaN);
        t[1].values[4].push_back(paper ? paper->uvmGb : kNaN);
        t[1].values[5].push_back(paper ? paper->discardGb : kNaN);
        t[1].values[6].push_back(paper ? paper->lmsGb : kNaN);
    }
    t[0].caption = "Images per second of one steady-state step on discard-gtx1070 (7956 MiB, PCIe 3), ours beside the "
                   "paper's (its DarkNet-UVM is our uvm-opt, its DarkNet-Discard our uvm-opt+discard; PyTorch-LMS is "
                   "not modelled).";
    t[1].caption = "Bytes over PCIe per step, both directions, ours beside the paper's per run (section 7.5's runs "
                   "are ten steps; Table 1 does not say), so compare the ratios.";
    return t;
}

// Section 7.5's allocations: "VGG-16 allocated 12.0 GB and 21.1 GB at batch sizes of 75 and 150;
// Darknet-19 11.2 GB and 23.4 GB at 171 and 360; ResNet-53 10.8 GB and 28.5 GB at 56 and 150".
FigureTable footprintTable() {
    struct Row { const DarknetNetwork* net; std::int64_t batch; double paperGb; };
    const Row rows[] = {{&darknetVgg16(), 75, 12.0}, {&darknetVgg16(), 150, 21.1}, {&darknet19(), 171, 11.2},
                        {&darknet19(), 360, 23.4},   {&darknet53(), 56, 10.8},     {&darknet53(), 150, 28.5}};
    FigureTable t;
    t.id = "footprints";
    t.title = "Section 7.5: CUDA buffers allocated per training step";
    t.xLabel = "network, batch";
    t.yLabel = "GB";
    t.series = {"ours", "paper"};
    t.values.assign(2, {});
    const GpuRoofline gpu = findDiscardGpu("rtx3080ti")->roofline;
    for (const Row& r : rows) {
        t.groups.push_back(fmt::format("{} {}", r.net->name, r.batch));
        t.values[0].push_back(gb(footprintOf(darknetTrainingGraph(*r.net, {r.batch, gpu}))));
        t.values[1].push_back(r.paperGb);
    }
    t.caption = "Every buffer of the generated step (and the largest workspace) against what the paper's Darknet "
                "allocated; the batch sizes where each network starts and stops in the paper's figures.";
    return t;
}

}  // namespace

std::vector<FigureTable> figures(const Runs& runs) {
    std::vector<FigureTable> out;
    if (!runs.table1Batches.empty())
        for (auto& f : table1Figures(runs.table1, runs.table1Batches)) out.push_back(std::move(f));
    for (const MicroRun& m : runs.micro) {
        out.push_back(microRuntimeTable(m));
        out.push_back(microTrafficTable(m));
    }
    if (!runs.dl.empty()) {
        out.push_back(trafficFigure(runs.dl));
        const Bytes card = hardwarePreset(kPcie4).gpuCapacity;
        out.push_back(throughputFigure(runs.dl, 1, card));
        out.push_back(throughputFigure(runs.dl, 0, card));
        out.push_back(footprintTable());
    }
    return out;
}

}  // namespace spillway::discard
