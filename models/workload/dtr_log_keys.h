// The optional keys memsim's tracer writes into a DTR log (dtr_log.h: ROLE, ROLES,
// RECOMPUTES, FLOPS, BYTES, DTYPE), read from one line with the file, the line and the
// value named in every error. A line without them reads as before.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/workload/dtr_log_lines.h"
#include "models/workload/workload.h"

namespace memsim {

// CONSTANT's "ROLE", if the line has one.
std::optional<TensorRole> dtr_role_key(const std::string& path, const DtrLine& line);

// CALL's "ROLES": one role per result (`results` of them), or none when the line has no ROLES.
std::optional<std::vector<TensorRole>> dtr_roles_key(const std::string& path, const DtrLine& line, std::size_t results);

// CALL's and MUTATE's FLOPS, BYTES and DTYPE into `op`; CALL's RECOMPUTES (an earlier op's
// index, below `op_index`).
void read_dtr_op_keys(const std::string& path, const DtrLine& line, int op_index, Op& op);

// A MUTATE argument index: an integer, or a string holding exactly one ("1"); anything
// else ("abc", "1x", 1.5) is an error rather than index 0.
long long dtr_mutate_index(const std::string& path, const DtrLine& line, const nlohmann::json& m);

}  // namespace memsim
