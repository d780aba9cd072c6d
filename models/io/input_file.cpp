#include "models/io/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

std::optional<std::string> input_file_problem(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return std::string(std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return std::string("it is a directory, not a file");
    if (S_ISFIFO(info.st_mode)) return std::string("it is a FIFO (named pipe), not a regular file");
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) return std::string("it is a device, not a regular file");
    if (S_ISSOCK(info.st_mode)) return std::string("it is a socket, not a regular file");
    if (!S_ISREG(info.st_mode)) return std::string("it is not a regular file");
    if (info.st_size == 0) return std::string("the file is empty");
    return std::nullopt;
}

void check_input_file(const std::string& path, const std::string& what) {
    if (const auto problem = input_file_problem(path))
        throw InputError(fmt::format("{}: cannot open {}: {}", path, what, *problem));
}

}  // namespace memsim
