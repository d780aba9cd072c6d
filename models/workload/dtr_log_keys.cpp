#include "models/workload/dtr_log_keys.h"

#include <limits>

#include <fmt/format.h>

namespace memsim {

namespace {

std::string role_names() {
    std::string out;
    for (TensorRole r : kTensorRoles) out += (out.empty() ? "" : ", ") + std::string(role_name(r));
    return out;
}

TensorRole role_of(const std::string& path, const DtrLine& line, const char* key, const nlohmann::json& value) {
    if (value.is_string())
        if (const auto r = role_named(value.get<std::string>())) return *r;
    fail_at_line(path, line,
                 fmt::format("field {} holds {}, not a role (roles: {})", key, shorten_for_message(value.dump()), role_names()));
}

// PyTorch's dtypes the device model has no peak for: accepted, read as unknown.
bool other_torch_dtype(const std::string& name) {
    for (const char* d : {"float64", "complex64", "complex128", "int64", "int32", "int16", "int8", "uint8", "bool"})
        if (name == d) return true;
    return false;
}

}  // namespace

std::optional<TensorRole> dtr_role_key(const std::string& path, const DtrLine& line) {
    const auto it = line.value.find("ROLE");
    if (it == line.value.end()) return std::nullopt;
    return role_of(path, line, "ROLE", *it);
}

std::optional<std::vector<TensorRole>> dtr_roles_key(const std::string& path, const DtrLine& line, std::size_t results) {
    const auto it = line.value.find("ROLES");
    if (it == line.value.end()) return std::nullopt;
    if (!it->is_array() || it->size() != results)
        fail_at_line(path, line,
                     fmt::format("field ROLES must list one role per RESULT entry ({}), got {}", results,
                                 shorten_for_message(it->dump())));
    std::vector<TensorRole> roles;
    for (const nlohmann::json& v : *it) roles.push_back(role_of(path, line, "ROLES", v));
    return roles;
}

void read_dtr_op_keys(const std::string& path, const DtrLine& line, int op_index, Op& op) {
    constexpr long long kLargest = std::numeric_limits<long long>::max();
    if (line.value.contains("FLOPS")) op.flops = static_cast<double>(dtr_integer_field(path, line, "FLOPS", 0, kLargest));
    if (line.value.contains("BYTES"))
        op.bytes_moved = static_cast<double>(dtr_integer_field(path, line, "BYTES", 0, kLargest));
    if (line.value.contains("DTYPE")) {
        const std::string name = dtr_string_field(path, line, "DTYPE");
        if (const auto d = dtype_named(name)) op.dtype = *d;
        else if (!other_torch_dtype(name))
            fail_at_line(path, line,
                         fmt::format("field DTYPE is \"{}\", not a PyTorch dtype (float32, float16, bfloat16, float64, "
                                     "int64, ...)",
                                     shorten_for_message(name)));
    }
    if (line.value.contains("RECOMPUTES")) {
        const long long k = dtr_integer_field(path, line, "RECOMPUTES", 0, kLargest);
        if (op_index == 0) fail_at_line(path, line, "field RECOMPUTES on the first operator: no earlier operator to re-run");
        if (k >= op_index)
            fail_at_line(path, line,
                         fmt::format("field RECOMPUTES is {}: it must be the index of an earlier operator (0 to {}, "
                                     "counting the CALL and MUTATE lines from the log's start)",
                                     k, op_index - 1));
        op.recomputes = static_cast<int>(k);
    }
}

long long dtr_mutate_index(const std::string& path, const DtrLine& line, const nlohmann::json& m) {
    if (m.is_number_integer()) return m.get<long long>();
    if (m.is_string()) {
        const std::string s = m.get<std::string>();
        std::size_t used = 0;
        long long k = -1;
        try {
            k = std::stoll(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (!s.empty() && used == s.size()) return k;
    }
    fail_at_line(path, line, fmt::format("MUTATE index {} is not an integer argument index", m.dump()));
}

}  // namespace memsim
