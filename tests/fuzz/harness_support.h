#pragma once
// What every harness in tests/fuzz shares: which exceptions count as the importer rejecting the
// input (expected), what counts as a finding (anything else, and a round trip that changes what
// was read), and scratch files for importers that only read from a path.
//
// A harness is one function, LLVMFuzzerTestOneInput, built twice: against libFuzzer in the fuzz
// build (scripts/fuzz, clang) and against replay_main.cpp in the ordinary build, where CTest
// replays the committed inputs of tests/fuzz/regressions/<harness>/.
#include "core/trace/profile.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway::fuzz {

// Prints "FUZZ FINDING: <what>: <detail>" and stops the process with a trap, which libFuzzer
// reports as a crash and saves the input for.
[[noreturn]] void finding(std::string_view what, std::string_view detail);

// Decides about an exception that escaped an importer: ImportError and NumberOverflow are the
// documented rejections and pass. Any other exception is a finding (an error without a file
// and place in it), unless SPILLWAY_FUZZ_ANY_EXCEPTION=1 is set in the environment.
void onImporterException(std::exception_ptr error);

// Runs `importStage` (reading the input and checking what was read); exceptions it lets out
// are judged by onImporterException. Always returns 0, as libFuzzer wants.
template <typename Stage>
int runHarness(Stage&& importStage) {
    try {
        std::forward<Stage>(importStage)();
    } catch (...) {
        onImporterException(std::current_exception());
    }
    return 0;
}

// The checks every imported profile gets: the gate every command but `validate` puts a loaded
// profile through (requireValidProfile: validateProfile's problems and 64-bit totals), whose
// ImportError is a rejection like the importer's own; then, for a valid profile, the native
// JSON round trip: written, read back, equal to what was written (bytes that are not UTF-8 read
// back as the text \xHH the writer puts for them) and written again to the same bytes (the
// profile's hash). Any other exception or difference is a finding.
void checkProfile(const Profile& profile);

std::string_view asText(const std::uint8_t* data, std::size_t size);

// A folder of this process's own under /dev/shm (or $TMPDIR), emptied on every call and removed
// at exit, for importers that read files.
std::filesystem::path scratchFolder();
// Writes `bytes` to `name` in `folder` and returns its path.
std::filesystem::path writeScratchFile(const std::filesystem::path& folder, const std::string& name,
                                       std::string_view bytes);

// Splits `text` at lines "==> NAME <==" (the headers `head` prints between files) into
// (NAME, content) pairs; text before the first header goes to `firstName`. Names that are not
// plain file names ([A-Za-z0-9._-], at most 64 characters, not "." or "..") make the pair's
// name empty: the caller skips it.
std::vector<std::pair<std::string, std::string>> splitFiles(std::string_view text,
                                                            const std::string& firstName);

}  // namespace spillway::fuzz
