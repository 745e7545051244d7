#include "core/io/g10/g10_import.h"

#include "core/io/base/file_text.h"
#include "core/io/g10/g10_configs.h"
#include "core/io/g10/g10_graph_expand.h"
#include "core/io/g10/g10_graph_parser.h"
#include "core/io/g10/g10_measurements.h"
#include "core/io/g10/g10_profile_build.h"
#include "core/io/g10/g10_workspace.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace spillway {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDevice = "NVIDIA A100 (G10 measurements)";

struct ModelName {
    std::string model;
    std::int64_t batch = 0;  // 0 when the name carries none
};

// "BERT_Base_256" -> BERT_Base, 256; "custom" -> custom, 0.
ModelName splitModelAndBatch(const std::string& name) {
    const auto underscore = name.rfind('_');
    if (underscore != std::string::npos && underscore + 1 < name.size()) {
        std::int64_t batch = 0;
        const char* first = name.data() + underscore + 1;
        const char* last = name.data() + name.size();
        const auto [ptr, ec] = std::from_chars(first, last, batch);
        if (ec == std::errc() && ptr == last && batch > 0) return {name.substr(0, underscore), batch};
    }
    return {name, 0};
}

std::string folderName(const fs::path& folder) {
    auto name = folder.filename().string();
    if (name.empty() || name == ".") name = fs::absolute(folder).lexically_normal().filename().string();
    if (name.empty()) name = fs::absolute(folder).lexically_normal().parent_path().filename().string();
    return name;
}

void addCommonNotes(ProfileMetadata& m) {
    m.notes["g10.units"] = "time in integer ns; sizes in bytes, rounded up to whole 4 KiB pages "
                           "as G10 allocates every tensor";
    m.notes["g10.phases"] = "*_Forward and LoadData_A0 -> forward; makeLoss -> loss; "
                            "*_Backward* and Add_MultiGredient -> backward; Apply_Grad and "
                            "*_Apply_Grad_* -> optimizer";
    m.notes["g10.tensor_kinds"] = "weight flag -> weight (persistent); written by no kernel -> "
                                  "input; else by the first kernel that writes it: forward -> "
                                  "activation, loss or backward -> gradient";
    m.notes["g10.kernel_op"] = "kernel op = G10's parent op (or layer) type; kernel and tensor "
                               "ids are G10's";
}

void addMeasurementNotes(ProfileMetadata& m, const G10Measurements& meas,
                         const G10MeasurementReport& report) {
    m.notes["g10.durations"] =
        fmt::format("measured on an A100: {} (ms -> ns, rounded)", meas.files.ideal.filename().string());
    m.notes["g10.fault_times"] = fmt::format(
        "timeAllFaulted from {}, timeOutputsFaulted from {} (ms -> ns); raised as G10 does so "
        "that resident <= outputs faulted <= all faulted: {} InputPF and {} PF values raised",
        meas.files.allFaulted.filename().string(), meas.files.outputsFaulted.filename().string(),
        report.outputsFaultedRaised, report.allFaultedRaised);
    m.notes["g10.workspace"] =
        fmt::format("kernel workspaceBytes from {} (bytes as measured)",
                    meas.files.workspace.filename().string());
}

// The g10.workspace note of a profile imported with its workspaces kept as tensors.
constexpr const char* kWorkspacesKeptNote = "workspace tensors of kernels.config kept as tensors, as G10 models them";

}  // namespace

Profile importG10Configs(const fs::path& kernelsConfig, bool workspacesAsTensors) {
    G10RawWorkload raw = readG10Configs(kernelsConfig);
    const auto folded = workspacesAsTensors ? 0 : foldG10WorkspaceTensors(raw);
    auto folder = kernelsConfig.parent_path();
    if (folder.empty()) folder = ".";
    const auto name = splitModelAndBatch(folderName(folder));

    ProfileMetadata m;
    m.model = name.model;
    m.batch = name.batch;
    m.device = kDevice;
    m.source = "g10-configs";
    m.sourcePath = kernelsConfig.string();
    addCommonNotes(m);
    m.notes["g10.durations"] = "kernels.config Execution Time: cycles at 1.2 GHz, ns = cycles / "
                               "1.2 rounded";
    m.notes["g10.workspace"] = workspacesAsTensors
        ? kWorkspacesKeptNote
        : fmt::format("{} workspace tensors of kernels.config (written by one kernel, read by none, "
                      "numbered after all others) folded into kernel workspaceBytes (page-rounded sizes)",
                      folded);
    if (name.batch > 0) m.notes["g10.batch"] = "from the folder name";
    return buildG10Profile(std::move(raw), std::move(m));
}

Profile importG10Workload(const fs::path& folder, bool workspacesAsTensors) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw ImportError(folder.string(), "is not a folder; expected a G10 workload folder with "
                                           "kernels.config, tensors.config and cudnn<B>*.txt");
    G10RawWorkload raw = readG10Configs(folder / "kernels.config");
    const auto folded = workspacesAsTensors ? 0 : foldG10WorkspaceTensors(raw);
    const auto files = findG10MeasurementFiles(folder, std::nullopt);
    const auto name = splitModelAndBatch(folderName(folder));

    ProfileMetadata m;
    m.model = name.model;
    m.batch = files ? files->batch : name.batch;
    m.device = kDevice;
    m.source = "g10-workload";
    m.sourcePath = folder.string();
    addCommonNotes(m);
    Profile p = buildG10Profile(std::move(raw), std::move(m));
    if (files) {
        const auto meas = readG10Measurements(*files, p.kernels.size());
        // Kept as tensors, the workspaces must not also be counted as kernel workspaceBytes.
        const auto report = attachG10Measurements(
            p, meas, workspacesAsTensors ? G10WorkspaceColumn::Ignore : G10WorkspaceColumn::CheckAndSet);
        addMeasurementNotes(p.metadata, meas, report);
        if (!workspacesAsTensors)
            p.metadata.notes["g10.workspace"] += fmt::format(
                "; the {} workspace tensors of kernels.config were checked against it and folded "
                "into the kernels",
                folded);
        if (name.batch > 0 && name.batch != files->batch)
            p.metadata.notes["g10.batch"] = fmt::format(
                "{} from the measurement file names (the folder name says {})", files->batch,
                name.batch);
    } else {
        p.metadata.notes["g10.measurements"] = "none in the folder (no cudnn<B>*.txt); durations "
                                               "from kernels.config cycles";
        p.metadata.notes["g10.durations"] = "kernels.config Execution Time: cycles at 1.2 GHz, "
                                            "ns = cycles / 1.2 rounded";
        p.metadata.notes["g10.workspace"] = fmt::format(
            "{} workspace tensors of kernels.config folded into kernel workspaceBytes "
            "(page-rounded sizes)",
            folded);
    }
    if (workspacesAsTensors) p.metadata.notes["g10.workspace"] = kWorkspacesKeptNote;
    return p;
}

Profile importG10Graph(const fs::path& graphPath, std::int64_t batch,
                       const std::optional<fs::path>& resultsDir,
                       std::optional<std::int64_t> weightThreshold) {
    if (batch <= 0)
        throw ImportError(graphPath.string(),
                          fmt::format("the batch size must be positive, got {}", batch));
    const std::string text = readFileText(graphPath);
    const G10Graph graph = parseG10Graph(graphPath.string(), text);
    const std::string model = graphPath.stem().string();

    std::string thresholdNote;
    if (!weightThreshold) {
        weightThreshold = knownG10WeightThreshold(model);
        if (weightThreshold) {
            thresholdNote = fmt::format("{} (G10's trans_borden for {})", *weightThreshold, model);
        } else {
            std::int64_t smallest = graph.ops.front().id;
            for (const auto& op : graph.ops) smallest = std::min(smallest, op.id);
            weightThreshold = smallest;
            thresholdNote = fmt::format("{} (inferred: the smallest op id; G10 ships no threshold "
                                        "for {})",
                                        smallest, model);
        }
    } else {
        thresholdNote = fmt::format("{} (given)", *weightThreshold);
    }

    G10RawWorkload raw = expandG10Graph(graph, batch, *weightThreshold);

    ProfileMetadata m;
    m.model = model;
    m.batch = batch;
    m.device = kDevice;
    m.source = "g10-graph";
    m.sourcePath = graphPath.string();
    addCommonNotes(m);
    m.notes["g10.weight_threshold"] = "input ids below " + thresholdNote + " are weights";
    m.notes["g10.expansion"] =
        "G10's rules: forward kernels in file order, makeLoss, then per op in reverse order an "
        "Add_MultiGredient where it has several incoming gradients, its backward kernels and a "
        "weight update per weight input; tensor sizes from each id's last shape in the file "
        "(99 = batch), x 4 bytes";
    Profile p = buildG10Profile(std::move(raw), std::move(m));
    if (resultsDir) {
        const auto files = findG10MeasurementFiles(*resultsDir, batch);
        if (!files)
            throw ImportError(resultsDir->string(),
                              fmt::format("holds no G10 measurements for batch {}; expected "
                                          "cudnn{}.txt, cudnn{}PF.txt, cudnn{}InputPF.txt and "
                                          "cudnn{}Workspace.txt",
                                          batch, batch, batch, batch, batch));
        const auto meas = readG10Measurements(*files, p.kernels.size());
        const auto report = attachG10Measurements(p, meas, G10WorkspaceColumn::Set);
        addMeasurementNotes(p.metadata, meas, report);
    } else {
        p.metadata.notes["g10.durations"] = "unknown: no measurements given (--results); every "
                                            "kernel duration is 0";
    }
    return p;
}

}  // namespace spillway
