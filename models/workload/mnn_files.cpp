#include "models/workload/mnn_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <limits>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/io/input_file.h"
#include "models/workload/input_error.h"

namespace memsim::mnn {

namespace fs = std::filesystem;
namespace dom = simdjson::dom;

std::string read_text(const fs::path& path) { return read_input_file(path.string(), "profile file", kMaxJsonFileBytes); }

std::optional<int> canonical_index(std::string_view text) {
    if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    if (text.size() > 1 && text[0] == '0') return std::nullopt;
    const long long value = std::stoll(std::string(text));
    if (value > std::numeric_limits<int>::max()) return std::nullopt;
    return static_cast<int>(value);
}

std::string dump(dom::element v) { return simdjson::minify(v); }

const char* type_name(dom::element v) {
    switch (v.type()) {
        case dom::element_type::ARRAY: return "array";
        case dom::element_type::OBJECT: return "object";
        case dom::element_type::STRING: return "string";
        case dom::element_type::BOOL: return "boolean";
        case dom::element_type::NULL_VALUE: return "null";
        default: return "number";
    }
}

std::optional<std::uint64_t> non_negative_integer(dom::element v) {
    std::int64_t value = 0;
    if (v.type() != dom::element_type::INT64 || v.get_int64().get(value) != simdjson::SUCCESS || value < 0) return std::nullopt;
    return static_cast<std::uint64_t>(value);
}

std::optional<double> number(dom::element v) {
    switch (v.type()) {
        case dom::element_type::INT64: return static_cast<double>(std::int64_t(v));
        case dom::element_type::UINT64: return static_cast<double>(std::uint64_t(v));
        case dom::element_type::DOUBLE: return double(v);
        default: return std::nullopt;
    }
}

namespace {

// The key written twice in `v` or below; `path` gets where, built on the way back up
// (only containers are visited, so a large list of numbers costs one pass).
std::optional<std::string_view> duplicate_key_under(dom::element v, std::string& path) {
    auto is_container = [](dom::element e) {
        return e.type() == dom::element_type::OBJECT || e.type() == dom::element_type::ARRAY;
    };
    if (v.type() == dom::element_type::OBJECT) {
        std::unordered_set<std::string_view> seen;
        for (const dom::key_value_pair field : dom::object(v))
            if (!seen.insert(field.key).second) return field.key;
        for (const dom::key_value_pair field : dom::object(v))
            if (is_container(field.value))
                if (const auto found = duplicate_key_under(field.value, path)) {
                    path = fmt::format(".{}{}", field.key, path);
                    return found;
                }
    } else if (v.type() == dom::element_type::ARRAY) {
        std::size_t i = 0;
        for (const dom::element item : dom::array(v)) {
            if (is_container(item))
                if (const auto found = duplicate_key_under(item, path)) {
                    path = fmt::format("[{}]{}", i, path);
                    return found;
                }
            ++i;
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> duplicate_key(dom::element v) {
    std::string path;
    const auto key = duplicate_key_under(v, path);
    if (!key) return std::nullopt;
    if (!path.empty() && path[0] == '.') path.erase(0, 1);
    return fmt::format("key \"{}\" {}", *key, path.empty() ? "at the top level" : "in " + path);
}

bool present(const fs::path& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 || errno != ENOENT;  // present, or there but unreadable: reading says why
}

std::vector<std::string> folder_entries(const fs::path& dir) {
    std::error_code error;
    const auto fail = [&] {
        throw InputError(fmt::format("{}: cannot read the profile folder: {}", dir.string(), path_error_text(error.value())));
    };
    if (!fs::is_directory(dir, error)) {
        if (!error && fs::exists(dir, error))
            throw InputError(fmt::format("{}: the profile folder is not a folder (a file, a device or a FIFO)", dir.string()));
        if (!error || error == std::errc::no_such_file_or_directory)
            throw InputError(fmt::format("{}: profile folder does not exist", dir.string()));
        fail();
    }
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
        names.push_back(it->path().filename().string());
    if (error) fail();
    return names;
}

std::string find_model_name(const fs::path& dir) {
    std::vector<std::string> names;
    for (const std::string& f : folder_entries(dir)) {
        const std::string suffix = ".io_info.json";
        if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
            names.push_back(f.substr(0, f.size() - suffix.size()));
    }
    if (names.empty()) throw InputError(fmt::format("{}: no *.io_info.json file (not an MNN profile folder)", dir.string()));
    if (names.size() > 1)
        throw InputError(fmt::format("{}: several *.io_info.json files ({}); one model per folder", dir.string(),
                                     fmt::join(names, ", ")));
    return names.front();
}

std::vector<int> batches_with(const fs::path& dir, const std::string& model, const std::string& kind) {
    const std::string prefix = model + ".", suffix = "." + kind + ".json";
    std::vector<int> batches;
    for (const std::string& name : folder_entries(dir)) {
        const fs::path entry_path = dir / name;
        if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (!middle.empty() && middle.find_first_not_of("0123456789") == std::string::npos) {
            // "004" would be batch 4 a second time: a batch is written as memsim writes it.
            if (middle[0] == '0')
                throw InputError(fmt::format("{}: batch number '{}' in the file name has a leading zero (write {})",
                                             entry_path.string(), middle, middle.find_first_not_of('0') == std::string::npos ? std::string("a batch >= 1") : middle.substr(middle.find_first_not_of('0'))));
            const std::optional<int> batch = canonical_index(middle);
            if (!batch)
                throw InputError(fmt::format("{}: batch number '{}' in the file name is larger than {}", entry_path.string(),
                                             middle, std::numeric_limits<int>::max()));
            batches.push_back(*batch);
        }
    }
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    return batches;
}

}  // namespace memsim::mnn
