#include "models/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <ext/stdio_filebuf.h>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

// What a file of this mode is, when it is not a regular file.
std::optional<std::string> kind_problem(mode_t mode) {
    if (S_ISDIR(mode)) return std::string("it is a directory, not a file");
    if (S_ISFIFO(mode)) return std::string("it is a FIFO (named pipe), not a regular file");
    if (S_ISCHR(mode) || S_ISBLK(mode)) return std::string("it is a device, not a regular file");
    if (S_ISSOCK(mode)) return std::string("it is a socket, not a regular file");
    if (!S_ISREG(mode)) return std::string("it is not a regular file");
    return std::nullopt;
}

struct Opened {
    int fd = -1;
    std::uint64_t size = 0;
    std::string problem;  // empty: fd is open
};

// stat first, so that nothing but a regular file is ever opened (opening a device can
// have effects); then open without blocking and check the descriptor is that file.
Opened open_checked(const std::string& path, std::optional<std::uint64_t> max_bytes) {
    if (path.empty()) return {-1, 0, "the path is empty"};
    struct stat before {};
    if (::stat(path.c_str(), &before) != 0) return {-1, 0, path_error_text(errno)};
    if (auto problem = kind_problem(before.st_mode)) return {-1, 0, *problem};
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return {-1, 0, path_error_text(errno)};
    struct stat info {};
    std::string problem;
    if (::fstat(fd, &info) != 0) problem = path_error_text(errno);
    else if (auto kind = kind_problem(info.st_mode)) problem = *kind;
    else if (info.st_dev != before.st_dev || info.st_ino != before.st_ino) problem = "it was replaced while being opened";
    else if (info.st_size == 0) problem = "the file is empty";
    else if (max_bytes && static_cast<std::uint64_t>(info.st_size) > *max_bytes)
        problem = fmt::format("it is {} bytes, more than the {} bytes (limit) such a file may have",
                              static_cast<std::uint64_t>(info.st_size), *max_bytes);
    if (!problem.empty()) {
        ::close(fd);
        return {-1, 0, problem};
    }
    // A regular file never blocks; reads should wait like any other file's.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return {fd, static_cast<std::uint64_t>(info.st_size), {}};
}

}  // namespace

struct InputFile::Stream {
    explicit Stream(int fd) : buffer(fd, std::ios::in), in(&buffer) {}
    __gnu_cxx::stdio_filebuf<char> buffer;  // owns the descriptor from here on
    std::istream in;
};

InputFile::InputFile(const std::string& path, const std::string& what, std::uint64_t max_bytes)
    : path_(path), what_(what), max_bytes_(max_bytes) {
    Opened opened = open_checked(path, max_bytes);
    if (opened.fd < 0) throw InputError(fmt::format("{}: cannot open {}: {}", path, what, opened.problem));
    fd_ = opened.fd;
    size_ = opened.size;
}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::istream& InputFile::stream() {
    if (!stream_) {
        stream_ = std::make_unique<Stream>(fd_);
        fd_ = -1;
    }
    return stream_->in;
}

std::string InputFile::read_all() {
    if (fd_ < 0) throw std::logic_error("InputFile::read_all after stream()");
    std::string text;
    text.resize(static_cast<std::size_t>(size_));
    std::size_t done = 0;
    for (;;) {
        if (done == text.size()) {
            if (text.size() > max_bytes_)
                throw InputError(fmt::format("{}: cannot read {}: it grew past {} bytes (limit) while being read", path_,
                                             what_, max_bytes_));
            text.resize(text.size() + 4096);  // a file still growing: read on to its end
        }
        const ssize_t n = ::read(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(fmt::format("{}: cannot read {}: {}", path_, what_, path_error_text(errno)));
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    if (text.size() > max_bytes_)
        throw InputError(fmt::format("{}: cannot read {}: it grew past {} bytes (limit) while being read", path_, what_,
                                     max_bytes_));
    if (text.empty()) throw InputError(fmt::format("{}: cannot open {}: the file is empty", path_, what_));
    return text;
}

std::string InputFile::read_tail(std::uint64_t bytes) {
    if (fd_ < 0) throw std::logic_error("InputFile::read_tail after stream()");
    const std::uint64_t start = size_ > bytes ? size_ - bytes : 0;
    std::string text(static_cast<std::size_t>(size_ - start), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::pread(fd_, text.data() + done, text.size() - done, static_cast<off_t>(start + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(fmt::format("{}: cannot read {}: {}", path_, what_, path_error_text(errno)));
        if (n == 0) break;  // cut short while being read
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
    return InputFile(path, what, max_bytes).read_all();
}

std::optional<std::string> input_file_problem(const std::string& path) {
    const Opened opened = open_checked(path, std::nullopt);
    if (opened.fd < 0) return opened.problem;
    ::close(opened.fd);
    return std::nullopt;
}

void check_input_file(const std::string& path, const std::string& what) {
    if (const auto problem = input_file_problem(path))
        throw InputError(fmt::format("{}: cannot open {}: {}", path, what, *problem));
}

std::string path_error_text(int error) {
    switch (error) {
        case ENOTDIR: return "a part of the path is a file, not a folder";
        case ELOOP: return "the path has a symbolic link loop (or passes more than 40 symbolic links)";
        case ENAMETOOLONG:
            return fmt::format("the path is longer than the system allows ({} bytes in all, {} per name)", PATH_MAX, NAME_MAX);
        case EACCES:
        case EPERM: return "permission denied";
        case EISDIR: return "it is a directory, not a file";
        default: return std::strerror(error);
    }
}

}  // namespace memsim
