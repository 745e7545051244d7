#pragma once
// A plan is what a user deploys: the kernel order, optional arena offsets, and directives tied
// to a kernel position and a tensor. Planners (core/policy) make plans; the simulator
// (core/sim) and the CUDA runtime replay them.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

enum class DirectiveKind {
    Prefetch,     // start moving the tensor to the GPU (asynchronous, on the link queue)
    PreEvict,     // start moving it out of the GPU to `target` (Host or Ssd), asynchronously
    Discard,      // UVM Discard, eager: contents dead; unmap now (cost), reclaim without
                  // write-back; a later use refaults with zero-fill, not a copy
    DiscardLazy,  // UVM Discard, lazy: mark dead; reclaimed only under pressure, without
                  // write-back; a later use needs a prefetch (zero-fill) first
    Free,         // the tensor is dead until the next iteration's first write: release it
    Recompute,    // drop it now; rebuild it before its next use by re-running its producer
    Advise,       // cudaMemAdvise on the tensor's range (`advice`, with `target` as the location):
                  // a hint to the UVM driver; it moves nothing by itself
};
std::string_view toString(DirectiveKind kind);

// The advice of an Advise directive, one to one with CUDA's cudaMemoryAdvise values so the
// replay runtime passes it through. `target` names the location: the preferred location for
// SetPreferredLocation (Gpu or Host), the processor that accesses the range for SetAccessedBy
// (Gpu = the GPU, Host = the CPU); the Unset variants undo the matching Set; ReadMostly ignores it.
enum class MemAdvice {
    None,  // not an Advise directive
    SetReadMostly,
    UnsetReadMostly,
    SetPreferredLocation,
    UnsetPreferredLocation,
    SetAccessedBy,
    UnsetAccessedBy,
};
std::string_view toString(MemAdvice advice);

// How the GPU memory is managed while the plan runs.
enum class MemoryModel {
    // Unified memory: page-level (2 MiB block) residency, faults, LRU eviction (core/sim/sim_engine*).
    UnifiedPaging,
    // The framework manages device memory itself, as FlashNeuron does: each tensor gets one
    // contiguous range from a first-fit allocator when first needed and gives it back after its
    // last read; pre-evicted tensors leave when their write ends and come back in backward as
    // room allows. Nothing pages; an allocation that cannot be satisfied stalls until a transfer
    // frees room, or the run is impossible (core/sim/tensor_level_replay.*, docs/simulator.md).
    ContiguousFirstFit,
};
std::string_view toString(MemoryModel model);

struct Directive {
    std::int64_t kernelPos = 0;  // issued just before the kernel at this position starts
    DirectiveKind kind = DirectiveKind::Prefetch;
    TensorId tensor = 0;
    Tier target = Tier::Gpu;     // PreEvict: Host or Ssd; Prefetch: Gpu
    // Prefetch only, a hint for eviction: spare the tensor until the kernel at this position
    // has run (DeepUM's pre-eviction spares what its prefetcher predicted). Counted forward from
    // kernelPos: a value below kernelPos lies in the next iteration. -1 = no hint.
    std::int64_t keepUntil = -1;
    // When it is issued, relative to the kernel at kernelPos: by default just before it starts;
    // with afterKernel, just after it ends. `delay` (>= 0) postpones the issue by that long
    // from that anchor, as TENSILE's (trigger, delta) instructions do. Engines that work in
    // whole kernel steps (the page-level and tensor-level replays) treat "after kernel k" as
    // "before the kernel that runs next" (after the last one: at the end of the iteration) and
    // issue a delayed directive at its anchor, without the delay (docs/simulator.md).
    bool afterKernel = false;
    Nanoseconds delay = 0;
    // Advise only (last, so the brace-initialised {pos, kind, tensor, target} planners write
    // stay valid).
    MemAdvice advice = MemAdvice::None;
    bool operator==(const Directive&) const = default;
};

// Where one buffer sits in the plan's arena (core/layout): a tensor, or a kernel's workspace.
struct ArenaSlot {
    TensorId tensor = -1;                  // >= 0: this tensor
    std::int64_t workspaceKernelPos = -1;  // >= 0 with tensor < 0: that kernel's workspace
    Bytes offset = 0;
    Bytes bytes = 0;                       // as placed (rounded up to the alignment)
    bool operator==(const ArenaSlot&) const = default;
};

struct Plan {
    std::string policy;             // planner that made it, e.g. "g10", "most+discard"
    std::vector<std::int64_t> order;  // kernel positions in run order; empty = program order
    std::vector<Directive> directives;  // sorted by kernelPos, stable
    std::map<std::string, std::string> notes;
    // The arena layout (empty = none planned): which placement method made it, its size, and
    // one slot per buffer of allocationProblemFromProfile(profile, order).
    std::string placement;
    Bytes arenaBytes = 0;
    std::vector<ArenaSlot> arena;
    // Eviction releases a victim whose tensor is dead at the running kernel (outside its first
    // to last use; persistent tensors are never dead) without writing it back; its next use
    // allocates it afresh. G10's DeepUM eviction does this (GPUPageTable::selectEvictPTE, DEEPUM
    // case: "not alive -> NOT_PRESENT"); plain UVM writes every victim back.
    bool dropDeadOnEviction = false;
    MemoryModel memoryModel = MemoryModel::UnifiedPaging;
    // Whether the plan may rely on demand paging: a kernel that uses a tensor whose data is on
    // the host or SSD faults it in. False: the plan promises every use finds its data on the GPU
    // (or arriving there) and the verifier (plan_verifier.h) refuses it otherwise. Faults are
    // allowed only under UnifiedPaging; a ContiguousFirstFit plan never faults (faultsAllowed()).
    bool allowFaults = true;
    bool faultsAllowed() const { return allowFaults && memoryModel == MemoryModel::UnifiedPaging; }
    // Non-empty when the planner found that the plan cannot run on the machine (why, with the
    // numbers). A ContiguousFirstFit replay then reports the run impossible without running it;
    // paging can always run, so the page-level engine ignores it.
    std::string cannotRun;
    bool operator==(const Plan&) const = default;
};

}  // namespace spillway
