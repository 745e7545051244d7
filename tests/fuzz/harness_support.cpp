#include "tests/fuzz/harness_support.h"

#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/native/native_json.h"
#include "core/io/valid_profile.h"
#include "core/trace/number_limits.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <typeinfo>
#include <unistd.h>

namespace spillway::fuzz {

namespace fs = std::filesystem;

void finding(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "FUZZ FINDING: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::fflush(stderr);
    __builtin_trap();
}

namespace {

bool environmentFlag(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && std::string_view(v) == "1";
}

// SPILLWAY_FUZZ_VERBOSE=1: print each rejection, to see how far a seed gets.
void noteRejection(const std::exception& e) {
    static const bool verbose = environmentFlag("SPILLWAY_FUZZ_VERBOSE");
    if (verbose) std::fprintf(stderr, "rejected: %s\n", e.what());
}

}  // namespace

void onImporterException(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const ImportError& e) {
        noteRejection(e);
    } catch (const NumberOverflow& e) {
        noteRejection(e);
    } catch (const std::exception& e) {
        noteRejection(e);
        static const bool anyException = environmentFlag("SPILLWAY_FUZZ_ANY_EXCEPTION");
        if (anyException) return;
        finding("an exception other than ImportError left the importer",
                std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        finding("a non-std exception left the importer", "(unknown type)");
    }
}

namespace {

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const unsigned char c : text) {
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", c);
            out += hex;
        }
    }
    return out + "\"";
}

// Where two profiles first differ, for the finding's message.
std::string firstDifference(const Profile& a, const Profile& b) {
    const auto& m = a.metadata;
    const auto& n = b.metadata;
    if (m.model != n.model) return "metadata model " + quoted(m.model) + " -> " + quoted(n.model);
    if (m.device != n.device) return "metadata device " + quoted(m.device) + " -> " + quoted(n.device);
    if (m.source != n.source) return "metadata source " + quoted(m.source) + " -> " + quoted(n.source);
    if (m.sourcePath != n.sourcePath) return "metadata source path";
    if (m.batch != n.batch) return "metadata batch";
    for (const auto& [key, value] : m.notes) {
        const auto other = n.notes.find(key);
        if (other == n.notes.end()) return "metadata note " + quoted(key) + " is missing";
        if (other->second != value) return "metadata note " + quoted(key) + ": " + quoted(value) + " -> " + quoted(other->second);
    }
    if (m.notes != n.notes) return "metadata notes";
    if (!(a.jobs == b.jobs)) return "jobs";
    if (a.tensors.size() != b.tensors.size()) return "number of tensors";
    for (std::size_t i = 0; i < a.tensors.size(); ++i) {
        const auto& x = a.tensors[i];
        const auto& y = b.tensors[i];
        if (x == y) continue;
        if (x.name != y.name) return "tensor " + std::to_string(i) + " name " + quoted(x.name) + " -> " + quoted(y.name);
        return "tensor " + std::to_string(i) + " (id " + std::to_string(x.id) + ")";
    }
    if (a.kernels.size() != b.kernels.size()) return "number of kernels";
    for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        const auto& x = a.kernels[i];
        const auto& y = b.kernels[i];
        if (x == y) continue;
        if (x.name != y.name) return "kernel " + std::to_string(i) + " name " + quoted(x.name) + " -> " + quoted(y.name);
        if (x.op != y.op) return "kernel " + std::to_string(i) + " op " + quoted(x.op) + " -> " + quoted(y.op);
        return "kernel " + std::to_string(i) + " (id " + std::to_string(x.id) + ")";
    }
    return "nothing found";
}

// The profile as the native writer spells it: bytes that are not UTF-8 become the text \xHH
// (core/io/base/json_dump.h), so a name with them reads back as that text, by design.
Profile asWritten(Profile p) {
    auto fix = [](std::string& text) { text = escapeInvalidUtf8(text); };
    fix(p.metadata.model);
    fix(p.metadata.device);
    fix(p.metadata.source);
    fix(p.metadata.sourcePath);
    std::map<std::string, std::string> notes;
    for (const auto& [key, value] : p.metadata.notes) notes[escapeInvalidUtf8(key)] = escapeInvalidUtf8(value);
    p.metadata.notes = std::move(notes);
    for (auto& job : p.jobs) fix(job.name);
    for (auto& tensor : p.tensors) {
        fix(tensor.name);
        for (auto& frame : tensor.frames) fix(frame);
    }
    for (auto& kernel : p.kernels) {
        fix(kernel.name);
        fix(kernel.op);
    }
    return p;
}

}  // namespace

void checkProfile(const Profile& profile) {
    // What every command but `validate` does with a loaded profile: one with problems is refused
    // like a broken file (an ImportError, judged as the importer's), so it is never written.
    requireValidProfile(profile, "fuzz input");
    std::string written;
    try {
        written = writeNativeProfile(profile);
    } catch (const std::exception& e) {
        finding("writing a valid imported profile threw", e.what());
    }
    Profile reread;
    try {
        reread = parseNativeProfile(written, "round-trip.profile.json");
    } catch (const std::exception& e) {
        finding("the native JSON written for an imported profile does not read back", e.what());
    }
    const Profile expected = asWritten(profile);
    if (!(reread == expected))
        finding("native round trip", "the profile read back differs from the one written: " +
                                         firstDifference(expected, reread));
    if (writeNativeProfile(reread) != written)
        finding("native round trip", "writing the profile read back gives other bytes");
}

std::string_view asText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

namespace {

// Scratch folders of harness processes that are gone (a crash, a timeout, a killed fork-mode
// job skip the exit handler): named spillway-fuzz-<pid>-*, removed when <pid> no longer runs.
void removeStaleFolders(const fs::path& base) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(base, ec)) {
        const std::string name = entry.path().filename().string();
        const std::string prefix = "spillway-fuzz-";
        if (!name.starts_with(prefix)) continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
}

// Allocated once and never freed: the exit handler that removes the folder runs after static
// objects are destroyed.
const fs::path& processFolder() {
    static const fs::path* folder = [] {
        std::error_code ec;
        fs::path base = "/dev/shm";
        if (!fs::is_directory(base, ec)) base = fs::temp_directory_path();
        removeStaleFolders(base);
        std::string pattern = (base / ("spillway-fuzz-" + std::to_string(getpid()) + "-XXXXXX")).string();
        if (mkdtemp(pattern.data()) == nullptr) finding("test setup", "cannot create a scratch folder");
        auto* made = new fs::path(pattern);
        std::atexit([] {
            std::error_code ignored;
            fs::remove_all(processFolder(), ignored);
        });
        return made;
    }();
    return *folder;
}

bool isPlainFileName(std::string_view name) {
    if (name.empty() || name.size() > 64 || name == "." || name == "..") return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '.' || c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

fs::path scratchFolder() {
    const fs::path& folder = processFolder();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) fs::remove_all(entry.path(), ec);
    return folder;
}

fs::path writeScratchFile(const fs::path& folder, const std::string& name, std::string_view bytes) {
    const fs::path path = folder / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) finding("test setup", "cannot write the scratch file " + path.string());
    return path;
}

std::vector<std::pair<std::string, std::string>> splitFiles(std::string_view text,
                                                            const std::string& firstName) {
    std::vector<std::pair<std::string, std::string>> files{{firstName, {}}};
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        const std::size_t next = end == std::string_view::npos ? text.size() : end + 1;
        std::string_view line = text.substr(at, next - at);
        if (line.ends_with('\n')) line.remove_suffix(1);
        if (line.starts_with("==> ") && line.ends_with(" <==") && line.size() >= 8) {
            const std::string_view name = line.substr(4, line.size() - 8);
            files.emplace_back(isPlainFileName(name) ? std::string(name) : std::string(), std::string());
        } else {
            files.back().second.append(text.substr(at, next - at));
        }
        at = next;
    }
    return files;
}

}  // namespace spillway::fuzz
