// An output folder is either wholly one run's, or marked incomplete. While memsim writes
// a folder (a run's, a sweep's, a merge's) it holds a lock, DIR/.memsim.lock (flock: the
// kernel drops it when the process ends, however it ends), so a second memsim writing
// the same folder is refused at once with a message naming the first; it marks the
// folder DIR/INCOMPLETE and removes the files an earlier run left there, so old and new
// outputs never sit side by side: every file of output_file_table() an earlier memsim
// left (and its temporaries), never a file memsim does not write. complete() removes the
// mark last. A run that fails,
// or is interrupted by a signal, leaves the folder marked; `memsim merge` and the sweep's
// own reading refuse a marked folder (docs/outputs.md, docs/limits.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memsim {

inline constexpr const char* kIncompleteMark = "INCOMPLETE";
inline constexpr const char* kLockFile = ".memsim.lock";

// Where a file of the table lives.
enum class OutputPlace {
    run,            // an output folder's own files: a run's (also each sweep point's folder)
    sweep,          // a sweep folder's root (one that holds sweep.json)
    sweep_results,  // a sweep folder's root, rewritten by `memsim merge`
    point,          // a sweep point's folder, points/NNNN/
    any,            // every folder memsim writes: the mark and the lock
};

// One file memsim may write into an output folder (docs/outputs.md, "The files memsim
// writes", is this table). A run's files are generated from the outputs table
// (sim/scenario/output_table.h).
struct OutputFileRow {
    std::string name;  // a '*' stands for any text: plot_*.svg
    OutputPlace place;
    std::string writers;  // the commands that write it
    std::string what;
};
const std::vector<OutputFileRow>& output_file_table();

// Whether `name` is the name of a row (its '*' matching any text).
bool matches_output_name(const std::string& name, const std::string& pattern);

// What a new writer removes of what earlier memsim runs left in its folder.
enum class EarlierOutputs {
    // run, sweep, sweep --emit-jobs: the run files, and in a sweep folder (one with
    // sweep.json) the sweep's files and every point's memsim files (a point folder left
    // empty goes too: a smaller sweep keeps none of a larger one's points).
    all,
    // merge, and a find's later rounds: results.csv and the plots; the points stay.
    results,
};

class OutputFolder {
public:
    // Creates `dir` as needed, takes its lock (InputError naming the folder and the other
    // writer's pid if one holds it), writes the mark saying `writer` is at work, and
    // removes the `earlier` outputs. A point folder that another memsim is writing is an
    // InputError naming it.
    OutputFolder(std::string dir, std::string writer, EarlierOutputs earlier);
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
