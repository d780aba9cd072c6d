#include "models/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace memsim {

namespace {

[[noreturn]] void fail(const std::string& path, const char* step, int error) {
    throw OutputError(fmt::format("{}: cannot {}: {}", path, step, std::strerror(error)));
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view text) {
    // Same folder as the target, so the rename stays on one file system and is atomic.
    const std::filesystem::path target(path);
    const std::string temp =
        (target.parent_path() / fmt::format(".{}.tmp{}", target.filename().string(), ::getpid())).string();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fail(path, "create it", errno);
    auto abandon = [&](const char* step, int error) {
        ::close(fd);
        ::unlink(temp.c_str());
        fail(path, step, error);
    };
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) abandon("write it", n < 0 ? errno : EIO);
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "write it", error);
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        fail(path, "rename its temporary into place", error);
    }
}

}  // namespace memsim
