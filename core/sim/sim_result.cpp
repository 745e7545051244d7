#include "core/sim/sim_result.h"

namespace spillway {

std::string_view toString(LinkId link) {
    switch (link) {
        case LinkId::HostToGpu: return "host_to_gpu";
        case LinkId::GpuToHost: return "gpu_to_host";
        case LinkId::SsdToGpu: return "ssd_to_gpu";
        case LinkId::GpuToSsd: return "gpu_to_ssd";
        case LinkId::SsdToHost: return "ssd_to_host";
        case LinkId::HostToSsd: return "host_to_ssd";
        case LinkId::NvLink: return "nvlink";
    }
    return "?";
}

}  // namespace spillway
