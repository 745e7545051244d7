#pragma once
// kernels.config has no end marker: cut at a kernel boundary it still parses, and nothing in it
// says kernels are missing. The measurement files G10 printed beside it (cudnn<B>*.txt, one line
// per kernel) know the count, so kernels.config is checked against them whenever they are
// there, whether it was opened by itself or as part of its folder.
#include <cstddef>
#include <filesystem>
#include <string_view>

namespace spillway {

// When every measurement file beside `kernelsConfig` has the same number of kernel lines and
// that is not `kernelCount`, throws an ImportError: at the last line of kernels.config when
// they measure more kernels (it is cut short), at the end of the first measurement file when
// they measure fewer. Files that disagree among themselves are left to readG10Measurements,
// which names the one that is off.
void checkG10KernelCountBeside(const std::filesystem::path& kernelsConfig, std::string_view kernelsText,
                               size_t kernelCount);

}  // namespace spillway
