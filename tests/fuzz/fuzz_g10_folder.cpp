// A G10 workload folder (core/io/g10): kernels.config, tensors.config and the four cudnn<B>*.txt
// measurement files, imported as importG10Workload reads them. The input holds the files one
// after another, each after a line "==> NAME <==" as `head` prints them; text before the first
// such line is kernels.config. A part named "workspaces_as_tensors" is not written: it turns on
// ImportOptions::g10WorkspacesAsTensors. The profile is validated and round-tripped.
#include "core/io/g10/g10_import.h"
#include "tests/fuzz/harness_support.h"

#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The folder's name is the model's name and batch ("model_8"), as in shared/data/g10/derived.
    const auto folder = spillway::fuzz::scratchFolder() / "model_8";
    std::filesystem::create_directory(folder);
    bool workspacesAsTensors = false;
    for (const auto& [name, content] : spillway::fuzz::splitFiles(spillway::fuzz::asText(data, size), "kernels.config")) {
        if (name == "workspaces_as_tensors") workspacesAsTensors = true;
        else if (!name.empty()) spillway::fuzz::writeScratchFile(folder, name, content);
    }
    return spillway::fuzz::runHarness([&] {
        const auto profile = spillway::importG10Workload(folder, workspacesAsTensors);
        spillway::fuzz::checkProfile(profile);
    });
}
