#include "python/workload_cache.h"

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "sim/app/run/workload_factory.h"

namespace memsim::python {

namespace {

namespace fs = std::filesystem;

// A few workloads at most: a notebook alternates between a handful, and each may be large.
constexpr std::size_t kKept = 4;

std::uint64_t g_parsed = 0;

// Size and modification time of `path`, or of every file under it; "" where missing
// (load_workload then reports it).
std::string stamp(const std::string& path) {
    if (path.empty()) return "";
    std::error_code ec;
    const auto one = [&](const fs::path& p) {
        std::error_code e;
        const auto size = fs::file_size(p, e);
        const auto time = fs::last_write_time(p, e);
        return e ? std::string("?") : fmt::format("{}:{}:{};", p.string(), size, time.time_since_epoch().count());
    };
    if (!fs::is_directory(path, ec)) return one(path);
    std::string text;
    for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (it->is_regular_file(ec)) text += one(it->path());
    return text;
}

std::string key_of(const WorkloadSpec& w) {
    std::string key = fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{}\n", w.profile, w.batch,
                                  w.forward_end ? std::to_string(*w.forward_end) : "-", w.costs, w.dtr_log,
                                  w.torch_snapshot, w.synthetic);
    for (const auto& [name, value] : w.synthetic_params) key += fmt::format("{}={}\n", name, value);
    for (const std::string& path : {w.profile, w.dtr_log, w.torch_snapshot}) key += stamp(path) + "\n";
    return key;
}

}  // namespace

const Workload& cached_workload(const Scenario& s) {
    static std::deque<std::pair<std::string, std::unique_ptr<Workload>>> kept;
    const std::string key = key_of(s.workload);
    for (const auto& [k, w] : kept)
        if (k == key) return *w;
    auto loaded = std::make_unique<Workload>(load_workload(s));
    ++g_parsed;
    if (kept.size() == kKept) kept.pop_front();
    kept.emplace_back(key, std::move(loaded));
    return *kept.back().second;
}

std::uint64_t workloads_parsed() { return g_parsed; }

}  // namespace memsim::python
