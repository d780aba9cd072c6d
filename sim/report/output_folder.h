// An output folder is either wholly one run's, or marked incomplete. While memsim writes
// a folder (a run's, a sweep's, a merge's) it holds a lock, DIR/.memsim.lock (flock: the
// kernel drops it when the process ends, however it ends), so a second memsim writing
// the same folder is refused at once with a message naming the first; it marks the
// folder DIR/INCOMPLETE and removes the files an earlier run left there, so old and new
// outputs never sit side by side. complete() removes the mark last. A run that fails,
// or is interrupted by a signal, leaves the folder marked; `memsim merge` and the sweep's
// own reading refuse a marked folder (docs/outputs.md, docs/limits.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memsim {

inline constexpr const char* kIncompleteMark = "INCOMPLETE";
inline constexpr const char* kLockFile = ".memsim.lock";

// The files a run writes into its folder (besides the mark and the lock).
const std::vector<std::string>& run_output_files();

class OutputFolder {
public:
    // Creates `dir` as needed, takes its lock (InputError naming the folder and the other
    // writer's pid if one holds it), writes the mark saying `writer` is at work, and
    // removes every file of `stale` (names in `dir`; a trailing '*' matches a prefix).
    OutputFolder(std::string dir, std::string writer, const std::vector<std::string>& stale);
    ~OutputFolder();  // releases the lock; the mark stays unless complete() was called
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    void complete();  // every file is written: the folder is wholly this writer's
    [[nodiscard]] const std::string& dir() const { return dir_; }

private:
    void release();
    std::string dir_, writer_;
    int lock_fd_ = -1;
};

// Creates `dir` and its parents. Throws InputError "DIR: cannot create WHAT: <reason>" in
// words: a symbolic link to a missing target, a file where a folder should be, a loop,
// a path too long.
void make_output_dir(const std::string& dir, const std::string& what);

// What the mark in `dir` says (the writer that did not finish, and what that means), or
// nullopt when the folder is not marked.
std::optional<std::string> incomplete_mark(const std::string& dir);
// The writer named on the mark's first line ("memsim run", "memsim sweep", ...).
std::optional<std::string> incomplete_writer(const std::string& dir);

}  // namespace memsim
