#include "sim/report/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "models/io/atomic_file.h"
#include "models/io/input_file.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace fs = std::filesystem;

const std::vector<std::string>& run_output_files() {
    static const std::vector<std::string> files = {"summary.json", "events.csv", "gantt.html", "trace.json"};
    return files;
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

bool matches(const std::string& name, const std::string& pattern) {
    if (!pattern.empty() && pattern.back() == '*') return name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
    return name == pattern;
}

}  // namespace

void make_output_dir(const std::string& dir, const std::string& what) {
    if (dir.empty()) throw InputError(fmt::format("cannot create {}: the path is empty", what));
    std::error_code error;
    fs::create_directories(dir, error);
    if (!error && fs::is_directory(dir, error)) return;
    throw InputError(fmt::format("{}: cannot create {}: {}", dir, what, why_not_a_folder(dir, error.value())));
}

OutputFolder::OutputFolder(std::string dir, std::string writer, const std::vector<std::string>& stale)
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
        std::error_code error;
        for (fs::directory_iterator it(dir_, error), end; !error && it != end; it.increment(error)) {
            const std::string name = it->path().filename().string();
            for (const std::string& pattern : stale)
                if (matches(name, pattern)) {
                    if (::unlink(it->path().c_str()) != 0 && errno != ENOENT)
                        throw InputError(fmt::format("{}: cannot remove it (left by an earlier run): {}", it->path().string(),
                                                     path_error_text(errno)));
                    break;
                }
        }
        if (error)
            throw InputError(fmt::format("{}: cannot list the output folder: {}", dir_, path_error_text(error.value())));
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
