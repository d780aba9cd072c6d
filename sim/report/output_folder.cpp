#include "sim/report/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "models/io/atomic_file.h"
#include "models/io/input_file.h"
#include "models/workload/input_error.h"
#include "sim/scenario/output_table.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

// The files of sweeps and of every folder, besides a run's.
const OutputFileRow kFolderFiles[] = {
    {"sweep.json", OutputPlace::sweep, "sweep, sweep --emit-jobs, find, compare", "the plan: its presence makes a sweep folder"},
    {"jobs.txt", OutputPlace::sweep, "sweep --emit-jobs", "one shell command per point"},
    {"results.csv", OutputPlace::sweep_results, "sweep, merge, find, compare", "one row per point"},
    {"plot_*.svg", OutputPlace::sweep_results, "sweep, merge, find, compare", "the plots"},
    {"points", OutputPlace::sweep, "sweep, sweep --emit-jobs, find, compare", "one folder per point, points/NNNN/"},
    {"log.txt", OutputPlace::point, "sweep (the jobs of sweep --emit-jobs)", "what the point's run printed"},
    {"scenario.yaml", OutputPlace::point, "sweep --emit-jobs", "the point's scenario, standing alone"},
    {kIncompleteMark, OutputPlace::any, "run, sweep, sweep --emit-jobs, merge", "the writer that has not finished"},
    {kLockFile, OutputPlace::any, "run, sweep, sweep --emit-jobs, merge", "the lock, while a writer is at work"},
};

}  // namespace

const std::vector<OutputFileRow>& output_file_table() {
    static const std::vector<OutputFileRow> table = [] {
        // A run's files are the outputs table's rows (sim/scenario/output_table.h), the
        // one it always writes first.
        std::vector<OutputFileRow> rows;
        for (const bool always : {true, false})
            for (const OutputRow& row : output_table())
                if (row.always == always)
                    rows.push_back({std::string(row.file), OutputPlace::run, "run",
                                    always ? std::string(row.summary) : fmt::format("{} ({})", row.summary, output_key(row))});
        rows.insert(rows.end(), std::begin(kFolderFiles), std::end(kFolderFiles));
        return rows;
    }();
    return table;
}

bool matches_output_name(const std::string& name, const std::string& pattern) {
    const std::size_t star = pattern.find('*');
    if (star == std::string::npos) return name == pattern;
    const std::string head = pattern.substr(0, star), tail = pattern.substr(star + 1);
    return name.size() >= head.size() + tail.size() && name.compare(0, head.size(), head) == 0 &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

namespace {

// Why `path` cannot be a folder, looking at it and at each of its parents: create_directories
// only says "File exists" for a dangling symbolic link or a file in the way.
std::string why_not_a_folder(const fs::path& path, int error) {
    fs::path prefix;
    for (const fs::path& part : path) {
        prefix /= part;
        struct stat link {};
        if (::lstat(prefix.c_str(), &link) != 0) break;  // from here on nothing exists
        struct stat target {};
        const bool reachable = ::stat(prefix.c_str(), &target) == 0;
        if (S_ISLNK(link.st_mode) && !reachable) {
            if (errno == ELOOP) return fmt::format("'{}' is a symbolic link in a loop", prefix.string());
            std::error_code ignored;
            return fmt::format("'{}' is a symbolic link to '{}', which does not exist", prefix.string(),
                               fs::read_symlink(prefix, ignored).string());
        }
        if (reachable && !S_ISDIR(target.st_mode))
            return fmt::format("'{}' is {}, not a folder", prefix.string(),
                               S_ISREG(target.st_mode) ? "a file" : "not a regular file");
    }
    return path_error_text(error);
}

std::optional<int> lock_holder(const std::string& lock_path) {
    try {
        const std::string text = read_input_file(lock_path, "lock file", kMaxSidecarBytes);
        return std::stoi(text);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// `name` is a row's file, or the temporary write_file_atomically gives it (".NAME.tmpPID",
// left by a writer that was killed in between).
bool is_output_file(const std::string& name, const OutputFileRow& row) {
    if (matches_output_name(name, row.name)) return true;
    const std::size_t tmp = name.rfind(".tmp");
    if (name.size() < 2 || name[0] != '.' || tmp == std::string::npos || tmp + 4 == name.size()) return false;
    for (std::size_t i = tmp + 4; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return false;
    return matches_output_name(name.substr(1, tmp - 1), row.name);
}

bool is_output_file(const std::string& name, const std::initializer_list<OutputPlace>& places) {
    for (const OutputFileRow& row : output_file_table())
        for (const OutputPlace place : places)
            if (row.place == place && is_output_file(name, row)) return true;
    return false;
}

bool is_plain_file(const fs::path& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

void remove_file(const fs::path& path) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        throw InputError(fmt::format("{}: cannot remove it (left by an earlier run): {}", path.string(), path_error_text(errno)));
}

// The regular files of `dir` (not folders, not links: memsim writes neither under these names).
std::vector<std::string> files_in(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
        if (is_plain_file(it->path())) names.push_back(it->path().filename().string());
    if (error) throw InputError(fmt::format("{}: cannot list the output folder: {}", dir.string(), path_error_text(error.value())));
    return names;
}

bool is_point_name(const std::string& name) {
    return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

// A point's lock that no process holds is removed (taken first, as a finishing writer
// does: see the constructor); one that is held means another memsim writes the point.
void remove_free_lock(const fs::path& point) {
    const fs::path lock = point / kLockFile;
    const int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno != ENOENT) remove_file(lock);
        return;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        const std::optional<int> pid = lock_holder(lock.string());
        throw InputError(fmt::format("{}: another memsim{} is writing this point's folder; wait until it ends, or write "
                                     "to another folder (--out)",
                                     point.string(), pid ? fmt::format(" (pid {})", *pid) : std::string()));
    }
    remove_file(lock);
    ::close(fd);
}

// Every point folder of a sweep folder loses what memsim wrote there; one left empty goes.
void clear_points(const fs::path& points) {
    struct stat info {};
    if (::lstat(points.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return;
    std::error_code error;
    std::vector<fs::path> folders;
    for (fs::directory_iterator it(points, error), end; !error && it != end; it.increment(error)) {
        struct stat entry {};
        if (is_point_name(it->path().filename().string()) && ::lstat(it->path().c_str(), &entry) == 0 && S_ISDIR(entry.st_mode))
            folders.push_back(it->path());
    }
    if (error) throw InputError(fmt::format("{}: cannot list it: {}", points.string(), path_error_text(error.value())));
    for (const fs::path& point : folders) {
        remove_free_lock(point);
        for (const std::string& name : files_in(point))
            if (is_output_file(name, {OutputPlace::run, OutputPlace::point}) || name == kIncompleteMark) remove_file(point / name);
        ::rmdir(point.c_str());  // fails, as it should, when the user's files are left
    }
    ::rmdir(points.c_str());
}

// What an earlier memsim left in `dir` (this writer's mark and lock are not in it).
void remove_earlier_outputs(const fs::path& dir, EarlierOutputs earlier) {
    // Generic names (results.csv, points/) are memsim's only in a folder a sweep wrote.
    const bool sweep_folder = is_plain_file(dir / "sweep.json");
    for (const std::string& name : files_in(dir)) {
        const bool earlier_output =
            earlier == EarlierOutputs::all
                ? is_output_file(name, {OutputPlace::run}) ||
                      (sweep_folder && is_output_file(name, {OutputPlace::sweep, OutputPlace::sweep_results}))
                : is_output_file(name, {OutputPlace::sweep_results});
        if (earlier_output && name != kIncompleteMark && name != kLockFile) remove_file(dir / name);
    }
    if (earlier == EarlierOutputs::all && sweep_folder) clear_points(dir / "points");
}

}  // namespace

void make_output_dir(const std::string& dir, const std::string& what) {
    if (dir.empty()) throw InputError(fmt::format("cannot create {}: the path is empty", what));
    std::error_code error;
    fs::create_directories(dir, error);
    if (!error && fs::is_directory(dir, error)) return;
    throw InputError(fmt::format("{}: cannot create {}: {}", dir, what, why_not_a_folder(dir, error.value())));
}

OutputFolder::OutputFolder(std::string dir, std::string writer, EarlierOutputs earlier)
    : dir_(std::move(dir)), writer_(std::move(writer)) {
    make_output_dir(dir_, "the output folder");
    const std::string lock_path = (fs::path(dir_) / kLockFile).string();
    // flock the file, then check the name still leads to it: a writer that finished
    // unlinks it while holding the lock, and a newcomer may have opened the old one.
    for (int attempt = 0;; ++attempt) {
        const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            throw InputError(fmt::format("{}: cannot create the lock file: {}", lock_path,
                                         errno == ELOOP ? std::string("it is a symbolic link") : path_error_text(errno)));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            ::close(fd);
            if (error != EWOULDBLOCK)
                throw InputError(fmt::format("{}: cannot lock the output folder: {}", lock_path, path_error_text(error)));
            const std::optional<int> pid = lock_holder(lock_path);
            throw InputError(fmt::format("{}: another memsim{} is writing this output folder; wait until it ends, or write "
                                         "to another folder (--out)",
                                         dir_, pid ? fmt::format(" (pid {})", *pid) : std::string()));
        }
        struct stat opened {}, named {};
        if (::fstat(fd, &opened) == 0 && ::lstat(lock_path.c_str(), &named) == 0 && opened.st_ino == named.st_ino &&
            opened.st_dev == named.st_dev) {
            lock_fd_ = fd;
            break;
        }
        ::close(fd);
        if (attempt >= 100) throw InputError(fmt::format("{}: cannot lock the output folder: its lock file keeps changing", dir_));
    }
    const std::string pid = fmt::format("{}\n", ::getpid());
    if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        // The pid only helps the message of a second writer; the lock holds without it.
    }
    try {
        write_file_atomically((fs::path(dir_) / kIncompleteMark).string(),
                              fmt::format("{}\n{} (pid {}) started writing this folder and did not finish (it is still "
                                          "running, or it failed or was interrupted): files here may be missing or "
                                          "partial; run it again\n",
                                          writer_, writer_, ::getpid()));
        remove_earlier_outputs(dir_, earlier);
    } catch (...) {
        release();
        throw;
    }
}

void OutputFolder::complete() {
    const std::string mark = (fs::path(dir_) / kIncompleteMark).string();
    if (::unlink(mark.c_str()) != 0 && errno != ENOENT)
        throw OutputError(fmt::format("{}: cannot remove it: {}", mark, path_error_text(errno)));
    release();
}

void OutputFolder::release() {
    if (lock_fd_ < 0) return;
    ::unlink((fs::path(dir_) / kLockFile).c_str());  // while still holding it (see the constructor)
    ::close(lock_fd_);
    lock_fd_ = -1;
}

OutputFolder::~OutputFolder() { release(); }

std::optional<std::string> incomplete_mark(const std::string& dir) {
    const std::string mark = (fs::path(dir) / kIncompleteMark).string();
    struct stat info {};
    if (::lstat(mark.c_str(), &info) != 0 && (errno == ENOENT || errno == ENOTDIR)) return std::nullopt;  // ENOTDIR: dir is no folder
    try {
        std::string text = read_input_file(mark, "the incomplete mark", kMaxSidecarBytes);
        const std::size_t first = text.find('\n');
        text = first == std::string::npos ? text : text.substr(first + 1);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
        return fmt::format("{} is marked {}: {}", dir, kIncompleteMark, text);
    } catch (const InputError& e) {
        return fmt::format("{} is marked {} ({})", dir, kIncompleteMark, e.what());
    }
}

std::optional<std::string> incomplete_writer(const std::string& dir) {
    const std::string mark = (fs::path(dir) / kIncompleteMark).string();
    struct stat info {};
    if (::lstat(mark.c_str(), &info) != 0 && (errno == ENOENT || errno == ENOTDIR)) return std::nullopt;  // ENOTDIR: dir is no folder
    try {
        const std::string text = read_input_file(mark, "the incomplete mark", kMaxSidecarBytes);
        return text.substr(0, text.find('\n'));
    } catch (const InputError&) {
        return std::string();
    }
}

}  // namespace memsim
