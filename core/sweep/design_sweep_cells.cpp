#include "core/sweep/design_sweep_cells.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/native/profile_hash.h"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

namespace spillway {

namespace {

constexpr std::uint64_t kMaxCells = std::uint64_t(1) << 48;

std::uint64_t sampleCount(const DesignSweepSpec& spec) { return spec.samples ? spec.samples->points.size() : 1; }

int idWidth(std::uint64_t cells) {
    return std::max(6, int(fmt::formatted_size("{}", cells > 0 ? cells - 1 : 0)));
}

}  // namespace

std::uint64_t cellCount(const DesignSweepSpec& spec) {
    std::uint64_t n = spec.profiles.size() * spec.policies.size();
    auto times = [&](std::uint64_t k) {
        if (k != 0 && n > kMaxCells / k)
            throw std::invalid_argument(fmt::format("{}: the sweep has more than 2^48 cells", spec.label));
        n *= k;
    };
    for (const SweepGridAxis& axis : spec.axes) times(axis.values.size());
    times(sampleCount(spec));
    return n;
}

DesignSweepCell cellAt(const DesignSweepSpec& spec, std::uint64_t index) {
    DesignSweepCell cell;
    cell.index = index;
    std::uint64_t rest = index;
    cell.policy = std::size_t(rest % spec.policies.size());
    rest /= spec.policies.size();
    const std::uint64_t sample = rest % sampleCount(spec);
    rest /= sampleCount(spec);
    std::vector<std::size_t> valueAt(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
        valueAt[a] = std::size_t(rest % spec.axes[a].values.size());
        rest /= spec.axes[a].values.size();
    }
    cell.profile = std::size_t(rest);
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        cell.hardwareSettings.emplace_back(spec.axes[a].key.name, spec.axes[a].values[valueAt[a]]);
    if (spec.samples)
        for (std::size_t k = 0; k < spec.samples->keys.size(); ++k)
            cell.hardwareSettings.emplace_back(spec.samples->keys[k].name, spec.samples->points[sample][k]);
    cell.settings["profile"] = spec.profiles[cell.profile].label;
    cell.settings["policy"] = spec.policies[cell.policy];
    for (const auto& [key, value] : cell.hardwareSettings) cell.settings[key] = value;
    // sha256Text's first 8 hex digits after "sha256:".
    cell.id = fmt::format("{:0{}}-{}", index, idWidth(cellCount(spec)), sha256Text(cell.settings.dump()).substr(7, 8));
    return cell;
}

ShardSelection parseShard(std::string_view text) {
    const auto slash = text.find('/');
    ShardSelection shard;
    auto number = [&](std::string_view part, std::uint64_t& out) {
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
        return !part.empty() && ec == std::errc() && end == part.data() + part.size();
    };
    if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
        !number(text.substr(slash + 1), shard.count) || shard.count == 0 || shard.index >= shard.count)
        throw std::invalid_argument(fmt::format("--shard: expected K/N with 0 <= K < N (K counts from 0, as "
                                                "SLURM_ARRAY_TASK_ID does), got \"{}\"",
                                                text));
    return shard;
}

std::vector<std::uint64_t> shardCells(std::uint64_t cells, const ShardSelection& shard) {
    std::vector<std::uint64_t> mine;
    for (std::uint64_t i = shard.index; i < cells; i += shard.count) mine.push_back(i);
    return mine;
}

std::string designSweepHash(const DesignSweepSpec& spec, const std::vector<std::string>& profileHashes) {
    std::string content = spec.canonicalText + "\n" + writeHardwareJson(spec.hardware) + "\n";
    for (const std::string& h : profileHashes) content += h + "\n";
    return sha256Text(content);
}

}  // namespace spillway
