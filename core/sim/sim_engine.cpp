// Setup (links, run order, per-kernel tensor lists, G10 bandwidths and quotas, directive index,
// initial placement) and the loop over iterations and kernels.
#include "core/sim/sim_engine.h"

#include "core/analysis/liveness.h"
#include "core/plan/kernel_order.h"
#include "core/sim/checked_time.h"
#include "core/sim/machine_fit.h"
#include "core/sim/stall_totals.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace spillway::sim {

namespace {
void checkHardware(const HardwareConfig& hw) {
    if (hw.gpuCount < 1) throw std::invalid_argument("gpu_count must be at least 1");
    if (hw.gpuCount > 1 && hw.nvlink.bytesPerSecond <= 0)
        throw std::invalid_argument("gpu_count > 1 needs an NVLink bandwidth (nvlink.bytes_per_s)");
    if (hw.gpuCapacity <= 0) throw std::invalid_argument("the GPU capacity must be positive");
    if (hw.pageSize <= 0 || hw.blockSize <= 0) throw std::invalid_argument("page and block sizes must be positive");
    if (hw.iterations < 1) throw std::invalid_argument("at least one iteration must be simulated");
    if (hw.hostToGpu.bytesPerSecond <= 0 || hw.gpuToHost.bytesPerSecond <= 0)
        throw std::invalid_argument("the host<->GPU link needs a bandwidth in both directions");
    // A machine file is bounded where it is read; one made in process is checked here, so the
    // capacities and latencies the engine adds to its byte counts and clock stay in range.
    const std::pair<const char*, Bytes> sizes[] = {{"gpu_capacity", hw.gpuCapacity},   {"host_capacity", hw.hostCapacity},
                                                   {"ssd_capacity", hw.ssdCapacity},   {"page_size", hw.pageSize},
                                                   {"block_size", hw.blockSize}};
    for (const auto& [name, value] : sizes)
        if (const std::string why = outOfBytesRange(value); !why.empty())
            throw std::invalid_argument(std::string(name) + ": " + why);
    const std::pair<const char*, Nanoseconds> times[] = {
        {"fault_latency", hw.faultLatency},           {"discard_unmap", hw.discardUnmapPerBlock},
        {"kernel_launch", hw.kernelLaunch},
        {"host_to_gpu latency", hw.hostToGpu.latency}, {"gpu_to_host latency", hw.gpuToHost.latency},
        {"ssd_to_gpu latency", hw.ssdToGpu.latency},   {"gpu_to_ssd latency", hw.gpuToSsd.latency},
        {"ssd_to_host latency", hw.ssdToHost.latency}, {"host_to_ssd latency", hw.hostToSsd.latency},
        {"nvlink latency", hw.nvlink.latency}};
    for (const auto& [name, value] : times)
        if (const std::string why = outOfDurationRange(value); !why.empty())
            throw std::invalid_argument(std::string(name) + ": " + why);
    checkMeasuredTransfers(hw.measured);  // before a curve prices a transfer
    if (const std::string why = discardCostProblem(hw.discardCost); !why.empty())
        throw std::invalid_argument("discard_cost: " + why);
}

// The block table's sizes, once the machine and the profile have passed the checks that must
// come before anything is allocated per block (machine_fit.h).
std::vector<Bytes> tensorSizesThatFit(const Profile& profile, const HardwareConfig& hw) {
    checkHardware(hw);
    checkProfileFitsMachine(profile, hw);
    std::vector<Bytes> sizes;
    sizes.reserve(profile.tensors.size());
    for (const Tensor& t : profile.tensors) sizes.push_back(t.bytes);
    return sizes;
}

// G10's quotas (System constructor): batch / GPU PCIe x SSD (or host) bandwidth, truncated to
// unsigned in doubles as G10 does; allocations per tick = tick time / allocation time of a page.
G10BatcherLimits g10LimitsOf(const HardwareConfig& hw) {
    G10BatcherLimits limits;
    const double batch = static_cast<double>(std::max<std::int64_t>(1, hw.faultBatchPages));
    const double pcie = static_cast<double>(hw.hostToGpu.bytesPerSecond);
    const double ssd = static_cast<double>(hw.ssdToGpu.bytesPerSecond > 0 ? hw.ssdToGpu.bytesPerSecond
                                                                           : hw.ssdToHost.bytesPerSecond);
    limits.batch = static_cast<std::int64_t>(batch);
    limits.ssdPerTick = pcie > 0 ? static_cast<std::int64_t>(batch / pcie * ssd) : limits.batch;
    limits.hostPerTick = limits.batch;  // G10's CPU and GPU PCIe bandwidths are one setting here
    const double tickSeconds = pcie > 0 ? batch * static_cast<double>(hw.pageSize) / pcie : 0;
    const double allocSecondsPerPage = static_cast<double>(hw.allocFemtosecondsPerByte) * 1e-15 * static_cast<double>(hw.pageSize);
    limits.allocPerTick = allocSecondsPerPage > 0 ? std::max<std::int64_t>(1, static_cast<std::int64_t>(tickSeconds / allocSecondsPerPage))
                                                  : std::int64_t{1} << 40;
    return limits;
}
}  // namespace

Engine::Engine(const Profile& profile, const Plan& plan, const HardwareConfig& hw, const SimulationOptions& options)
    : profile_(profile), plan_(plan), hw_(hw), options_(options), blocks_(tensorSizesThatFit(profile, hw), hw.blockSize) {
    setUpLinks();
    order_ = runOrder(plan, profile.kernels.size());
    const ProfileIndex index(profile);
    indexKernelTensors(index);
    setUpSplit(index);
    const Liveness liveness = computeLiveness(profile);
    liveness_ = liveness.tensors;
    reorderOnUse_ = hw.faultModel != FaultModel::G10Calibrated;
    g10Limits_ = g10LimitsOf(hw);
    producer_.resize(profile.tensors.size());
    for (std::size_t t = 0; t < profile.tensors.size(); ++t) producer_[t] = liveness.tensors[t].producer;
    needsRecompute_.assign(profile.tensors.size(), 0);
    noted_.assign(profile.tensors.size(), -1);
    landAt_.assign(static_cast<std::size_t>(blocks_.size()), -1);
    landKeepUntil_.assign(static_cast<std::size_t>(blocks_.size()), -1);
    landFrom_.assign(static_cast<std::size_t>(blocks_.size()), 0);
    indexDirectives(index);
    placePersistentTensors();
}

void Engine::setUpLinks() {
    const LinkSpec specs[kLinkCount] = {hw_.hostToGpu, hw_.gpuToHost, hw_.ssdToGpu, hw_.gpuToSsd,
                                        hw_.ssdToHost, hw_.hostToSsd, hw_.nvlink};
    for (int i = 0; i < kLinkCount; ++i) links_[i] = LinkQueue(specs[i]);
    links_[kNvLinkIntoHome] = LinkQueue(hw_.nvlink);
    // The host link is priced per mechanism (hostLinkTime), its directions paired for the
    // mechanisms the machine measured as not duplex; SSD and NVLink keep their LinkSpec.
    link(LinkId::HostToGpu) = LinkQueue(hw_, TransferDirection::ToGpu);
    link(LinkId::GpuToHost) = LinkQueue(hw_, TransferDirection::ToHost);
    LinkQueue::pairDirections(link(LinkId::HostToGpu), link(LinkId::GpuToHost));
}

// Per kernel: the tensor positions it reads and writes, and G10's bandwidths over their bytes.
void Engine::indexKernelTensors(const ProfileIndex& index) {
    const std::size_t kernelCount = profile_.kernels.size();
    kernelTensors_.resize(kernelCount);
    g10_.resize(kernelCount);
    workspaceReadyAt_.assign(kernelCount, -1);
    std::vector<std::int64_t> lastSeen(profile_.tensors.size(), -1);
    for (std::size_t k = 0; k < kernelCount; ++k) {
        const Kernel& kernel = profile_.kernels[k];
        KernelTensors& kt = kernelTensors_[k];
        // A tensor read and written by one kernel counts once, as an input.
        auto add = [&](const std::vector<TensorId>& ids, std::vector<std::int32_t>& into) {
            for (TensorId id : ids) {
                const std::int64_t p = index.tensorPos(id);
                if (p < 0 || lastSeen[p] == static_cast<std::int64_t>(k)) continue;
                lastSeen[p] = static_cast<std::int64_t>(k);
                into.push_back(static_cast<std::int32_t>(p));
            }
        };
        add(kernel.inputs, kt.inputs);
        add(kernel.outputs, kt.outputs);
        Bytes in = 0, out = 0;
        for (std::int32_t p : kt.inputs) in += profile_.tensors[p].bytes;
        for (std::int32_t p : kt.outputs) out += profile_.tensors[p].bytes;
        g10_[k] = g10KernelBandwidth(kernel, in, out, hw_);
    }
}

void Engine::indexDirectives(const ProfileIndex& index) {
    const std::size_t kernelCount = profile_.kernels.size();
    directivesAt_.resize(kernelCount);
    // "After kernel k" is "before the kernel that runs after k" (after the last: the end of the
    // iteration), ahead of that kernel's own directives; the engine works in kernel steps, so a
    // directive's delay is not applied (docs/simulator.md).
    std::vector<std::int64_t> runsNext(kernelCount, -1);
    for (std::size_t i = 0; i + 1 < order_.size(); ++i) runsNext[order_[i]] = order_[i + 1];
    for (int pass = 0; pass < 2; ++pass)
        for (const Directive& d : plan_.directives) {
            if (d.afterKernel != (pass == 0)) continue;
            if (d.kernelPos < 0 || d.kernelPos >= static_cast<std::int64_t>(kernelCount))
                throw std::invalid_argument("a " + std::string(toString(d.kind)) + " directive names kernel position " +
                                            std::to_string(d.kernelPos) + ", outside the profile");
            const std::int64_t p = index.tensorPos(d.tensor);
            if (p < 0)
                throw std::invalid_argument("a " + std::string(toString(d.kind)) + " directive names unknown tensor id " +
                                            std::to_string(d.tensor));
            const std::int64_t at = d.afterKernel ? runsNext[d.kernelPos] : d.kernelPos;
            (at < 0 ? directivesAtEnd_ : directivesAt_[at]).push_back(&d);
        }
    // Directives carry tensor ids; the engine works in positions. Keep a resolved copy.
    resolved_.reserve(plan_.directives.size());
    auto resolve = [&](std::vector<const Directive*>& list) {
        for (const Directive*& d : list) {
            Directive r = *d;
            r.tensor = index.tensorPos(d->tensor);
            resolved_.push_back(r);
            d = &resolved_.back();  // reserved above: no reallocation moves it
        }
    };
    for (auto& list : directivesAt_) resolve(list);
    resolve(directivesAtEnd_);
}

// Persistent tensors (weights, optimizer state) start where the hardware says; the rest are
// unwritten (a first touch allocates).
void Engine::placePersistentTensors() {
    for (std::size_t t = 0; t < profile_.tensors.size(); ++t) {
        if (!profile_.tensors[t].persistent) continue;
        for (std::int32_t b = blocks_.firstBlock(t); b < blocks_.endBlock(t); ++b) {
            Block& x = blocks_[b];
            Tier where = hw_.weightsStartOn;
            if (where == Tier::Gpu && gpuUsed_ + x.bytes > hw_.gpuCapacity) where = Tier::Host;
            if (where == Tier::Host && hostUsed_ + x.bytes > hw_.hostCapacity) where = Tier::Ssd;
            if (where == Tier::Gpu) { placeOnGpu(b, 0); continue; }
            x.loc = where == Tier::Host ? BlockLoc::Host : BlockLoc::Ssd;
            (where == Tier::Host ? hostUsed_ : ssdUsed_) += x.bytes;
        }
    }
}

SimulationResult Engine::run() {
    result_.policy = plan_.policy;
    result_.hardware = hw_.id;
    Nanoseconds now = 0;
    for (int iteration = 0; iteration < hw_.iterations; ++iteration) {
        const bool reported = iteration == hw_.iterations - 1;
        if (reported) {
            recording_ = true;
            // Every queue, the second NVLink direction (into the home GPU) included.
            for (int i = 0; i <= kLinkCount; ++i) {
                links_[i].bytesMoved = 0;
                links_[i].id = i < kLinkCount ? static_cast<LinkId>(i) : LinkId::NvLink;
                if (options_.recordTransfers) links_[i].log = &result_.transfers;
            }
            for (std::int32_t b = 0; b < blocks_.size(); ++b)
                if (blocks_[b].loc == BlockLoc::Gpu) result_.gpuBytesAtStart += blocks_[b].bytes;
            result_.peakGpuBytes = gpuUsed_;
            if (options_.recordTensorResidency) {
                recorder_.emplace(profile_.tensors.size());
                for (std::size_t t = 0; t < profile_.tensors.size(); ++t)
                    recorder_->mark(t, now, residenceOf(static_cast<std::int32_t>(t), now));
            }
            result_.kernels.reserve(order_.size());
        }
        const Nanoseconds iterationStart = now;
        for (std::int64_t pos : order_) {
            if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) throw SimulationCancelled();
            const KernelTiming timing = runKernel(pos, now);
            now = timing.end;
            if (reported) result_.kernels.push_back(timing);
        }
        issueEndOfIteration(now);
        result_.iterationTimes.push_back(now - iterationStart);
        if (reported) result_.iterationTime = now - iterationStart;
    }

    result_.totals = stallTotals(result_.kernels);
    result_.idealTime = idealTimeOnEveryGpu();
    for (int i = 0; i < kLinkCount; ++i) result_.traffic[i] = links_[i].bytesMoved;
    result_.traffic[static_cast<int>(LinkId::NvLink)] =
        checkedAdd(result_.traffic[static_cast<int>(LinkId::NvLink)], links_[kNvLinkIntoHome].bytesMoved,
                   "the bytes moved over NVLink");
    summariseGpus();
    for (std::int32_t b = 0; b < blocks_.size(); ++b)
        if (blocks_[b].loc == BlockLoc::Gpu) result_.gpuBytesAtEnd += blocks_[b].bytes;
    result_.gpuBytesIn = gpuBytesIn_;
    result_.gpuBytesOut = gpuBytesOut_;
    if (recorder_) result_.tensorResidency = recorder_->finish(now);
    return std::move(result_);
}

}  // namespace spillway::sim
