#include "sim/app/cli/records_file.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/checked_math.h"
#include "models/io/input_file.h"
#include "models/io/json_input.h"
#include "models/workload/input_error.h"

namespace memsim::cli {

namespace {

// A non-negative integer field of records[i], with an error naming file, field and value.
std::uint64_t record_field(const nlohmann::json& rec, const std::string& file, std::size_t i, const char* field) {
    const std::string where = fmt::format("{}: records[{}].{}", file, i, field);
    if (!rec.contains(field)) throw InputError(where + ": missing");
    const nlohmann::json& v = rec.at(field);
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer()) throw InputError(fmt::format("{}: {} is negative", where, v.dump()));
    throw InputError(fmt::format("{}: {} is not a non-negative integer", where, v.dump()));
}

}  // namespace

std::vector<UsageRecord> read_records(const std::string& file) {
    const std::string text = read_input_file(file, "the records file", kMaxJsonFileBytes);
    const nlohmann::json doc = parse_json_input(text, file);
    if (!doc.is_object() || !doc.contains("records") || !doc.at("records").is_array())
        throw InputError(fmt::format("{}: expected {{\"records\": [{{\"size\": N, \"first\": F, \"last\": L}}, ...]}}", file));
    std::vector<UsageRecord> records;
    std::uint64_t total = 0;
    const nlohmann::json& list = doc.at("records");
    constexpr std::uint64_t kMaxOp = static_cast<std::uint64_t>(std::numeric_limits<int>::max() - 1);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const nlohmann::json& rec = list[i];
        if (!rec.is_object()) throw InputError(fmt::format("{}: records[{}]: {} is not an object", file, i, rec.dump()));
        UsageRecord r;
        r.tensor = static_cast<TensorId>(i);
        r.bytes = record_field(rec, file, i, "size");
        const std::uint64_t first = record_field(rec, file, i, "first");
        const std::uint64_t last = record_field(rec, file, i, "last");
        if (first > kMaxOp) throw InputError(fmt::format("{}: records[{}].first: {} is too large", file, i, first));
        if (last > kMaxOp) throw InputError(fmt::format("{}: records[{}].last: {} is too large", file, i, last));
        if (first > last)
            throw InputError(fmt::format("{}: records[{}]: first {} is after last {}", file, i, first, last));
        r.first_op = static_cast<int>(first);
        r.last_op = static_cast<int>(last);
        // The planners take records in order of first use, as usage_records gives them.
        if (!records.empty() && r.first_op < records.back().first_op)
            throw InputError(fmt::format("{}: records[{}].first: {} is before records[{}].first {} (records must be "
                                         "sorted by first)",
                                         file, i, first, i - 1, records.back().first_op));
        const auto sum = checked_add(total, r.bytes);
        if (!sum || *sum > kMaxTotalBytes)
            throw InputError(fmt::format("{}: records[{}].size: {} brings the total of the sizes past 2^53 = {} (the "
                                         "most memsim plans exactly)",
                                         file, i, r.bytes, kMaxTotalBytes));
        total = *sum;
        records.push_back(r);
    }
    return records;
}

}  // namespace memsim::cli
