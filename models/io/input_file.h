// Every file memsim reads is opened here, through one checked open: the path is opened
// without blocking (opening a FIFO for reading would wait for a writer forever), then
// the open descriptor is checked, so what is read is what was checked: a regular,
// non-empty file no larger than the reader's limit. A directory, a FIFO, a socket, a
// device such as /dev/null or /dev/zero, an empty file or one over the limit is refused
// with an error naming the path and the reason in words (docs/limits.md, "Input files").
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace memsim {

// Size limits by kind of file. A file read whole is held in memory (and parsed into
// more), so its limit stays well below a machine's memory; a file read line by line
// (a DTR log) may be larger, its memory follows the workload it describes.
inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxYamlFileBytes = 16 * kMiB;         // scenario, platform file
inline constexpr std::uint64_t kMaxJsonFileBytes = 1024 * kMiB;       // MNN profile files, records files
// A PyTorch memory snapshot is read whole and becomes a tree of Python values; with the
// snapshot itself memsim then holds about 12 times the file (docs/limits.md, "Work that
// grows with the input"): 256 MiB keeps that near 3 GB.
inline constexpr std::uint64_t kMaxSnapshotFileBytes = 256 * kMiB;
inline constexpr std::uint64_t kMaxDtrLogBytes = 64 * 1024 * kMiB;    // read line by line
inline constexpr std::uint64_t kMaxOwnOutputBytes = 256 * kMiB;       // summary.json, sweep.json read back
inline constexpr std::uint64_t kMaxSidecarBytes = kMiB;               // LOG.meta.json, lock files

// An input file, opened and checked. Reads go to the descriptor that was checked.
class InputFile {
public:
    // Throws InputError "PATH: cannot open WHAT: <reason>".
    InputFile(const std::string& path, const std::string& what, std::uint64_t max_bytes);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] std::uint64_t size() const { return size_; }
    // The file as a stream, from its start (for reading line by line).
    std::istream& stream();
    // The whole text; a file that grew past the limit while it was read is an error.
    std::string read_all();
    // At most its last `bytes` bytes (a log of any size: only its end is read).
    std::string read_tail(std::uint64_t bytes);

private:
    struct Stream;
    std::string path_, what_;
    std::uint64_t max_bytes_ = 0;
    std::uint64_t size_ = 0;
    int fd_ = -1;
    std::unique_ptr<Stream> stream_;
};

// The whole text of a checked input file.
std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes);

// The checks alone (opening without blocking, no size limit): throws InputError
// "PATH: cannot open WHAT: <reason>" ...
void check_input_file(const std::string& path, const std::string& what);
// ... or gives the reason without throwing (nullopt: the file is fine).
std::optional<std::string> input_file_problem(const std::string& path);

// What an errno from opening or creating a path means, in words (a symbolic link loop,
// a path longer than the system allows, a part of the path that is not a folder, ...).
std::string path_error_text(int error);

}  // namespace memsim
