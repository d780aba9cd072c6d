#include "models/workload/dtr_log.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/checked_math.h"
#include "models/io/input_file.h"
#include "models/workload/dtr_log_keys.h"
#include "models/workload/dtr_log_lines.h"
#include "models/workload/dtr_log_roles.h"
#include "models/workload/input_error.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace {

using nlohmann::json;
using Line = DtrLine;

// The log is read line by line and never kept: memory follows the workload it builds,
// not the file (10^6 operators held 2.2 GB of parsed lines). Lines before the first
// `ANNOTATE START` do not count when there is one; as it may come at any line, the
// reader handles lines from the start and, at the first START, forgets what it built.
// A semantic error is kept and raised at the end of the file, so that (as when every
// line was parsed before any was handled) a malformed line anywhere wins, and an error
// before a START that follows is dropped with what came before it.
class DtrLogReader {
public:
    explicit DtrLogReader(std::string path) : path_(std::move(path)) {}

    DtrLog read() {
        InputFile file(path_, "DTR log", kMaxDtrLogBytes);
        DtrLineReader lines(file.stream(), path_);
        lines_ = &lines;
        while (std::optional<Line> line = pull()) {
            if (!started_ && is_start(*line)) {
                restart();  // what came before the first START is not part of the log
                continue;
            }
            if (deferred_) continue;  // only checking that every line parses
            try {
                handle(*line);
            } catch (const InputError& e) {
                deferred_ = e;
            }
        }
        if (file.stream().bad()) throw InputError(fmt::format("{}: cannot read DTR log after line {}", path_, lines.number()));
        if (deferred_) throw *deferred_;
        w_.source = path_;
        w_.name = std::filesystem::path(path_).filename().string();
        w_.batch = 0;
        if (w_.ops.empty()) throw InputError(fmt::format("{}: DTR log has no operators (no CALL or MUTATE line)", path_));
        finish();
        check_workload_limits(w_);
        return DtrLog{std::move(w_), std::move(arrival_)};
    }

private:
    static bool is_start(const Line& line) {
        return line.value.value("INSTRUCTION", json()) == "ANNOTATE" && line.value.value("ANNOTATION", json()) == "START";
    }

    // The next line, or the START read ahead.
    std::optional<Line> pull() {
        if (pushed_back_) {
            std::optional<Line> line = std::move(pushed_back_);
            pushed_back_.reset();
            return line;
        }
        return lines_->next();
    }

    // Forgets everything read so far: the first START begins the log.
    void restart() {
        started_ = true;
        deferred_.reset();
        w_ = Workload{};
        bound_.clear();
        last_binding_.clear();
        name_order_.clear();
        arrival_.clear();
        references_.clear();
        storage_values_.clear();
        pending_release_.clear();
        recorded_role_.clear();
        writes_ = DtrWrites{};
        micro_batches_.clear();
        micro_batch_lines_.clear();
        backward_at_ = -1;
    }

    [[noreturn]] void fail(const Line& line, const std::string& what) const { fail_at_line(path_, line, what); }
    std::string string_field(const Line& line, const char* key) const { return dtr_string_field(path_, line, key); }
    long long integer_field(const Line& line, const char* key, long long minimum,
                            long long maximum = static_cast<long long>(kMaxTotalBytes)) const {
        return dtr_integer_field(path_, line, key, minimum, maximum);
    }
    std::vector<std::string> string_list(const Line& line, const char* key) const { return dtr_string_list(path_, line, key); }

    TensorId lookup(const Line& line, const std::string& name, const char* role) const {
        const auto it = bound_.find(name);
        if (it == bound_.end()) fail(line, fmt::format("{} '{}' was never defined (or already released)", role, name));
        return it->second;
    }

    TensorId storage_of(TensorId t) const { return w_.tensors[t].alias_of >= 0 ? w_.tensors[t].alias_of : t; }

    TensorId new_tensor(const std::string& name, std::uint64_t bytes, int producer, bool constant, TensorId alias_of) {
        const auto t = static_cast<TensorId>(w_.tensors.size());
        w_.tensors.push_back(Tensor{name, bytes, producer, false, constant, alias_of});
        references_.push_back(0);
        recorded_role_.push_back(0);
        writes_.previous_version.push_back(-1);
        arrival_.push_back(constant ? static_cast<int>(w_.ops.size()) : -1);
        storage_values_.push_back(0);
        ++storage_values_[storage_of(t)];
        return t;
    }

    void add_reference(TensorId t) { ++references_[t]; }

    void drop_reference(TensorId t) {
        if (--references_[t] > 0) return;
        const TensorId s = storage_of(t);
        // After the last op emitted, but never before the op the tensor arrived at.
        int after = static_cast<int>(w_.ops.size()) - 1;
        after = std::max(after, arrival_[s]);
        if (s != t) pending_release_.push_back({after, t});
        if (--storage_values_[s] == 0) pending_release_.push_back({after, s});
    }

    void bind(const Line& line, const std::string& name, TensorId t) {
        if (bound_.count(name)) fail(line, fmt::format("name '{}' is defined twice", name));
        bound_[name] = t;
        rebind(name, t);
        add_reference(t);
    }

    // The name's last binding, kept after a RELEASE (the end-of-log requests walk every
    // name ever bound, in first-binding order).
    void rebind(const std::string& name, TensorId t) {
        const auto [it, inserted] = last_binding_.try_emplace(name, t);
        if (inserted) name_order_.push_back(name);
        else it->second = t;
    }

    Line next_line(const Line& after, const char* expected, const std::string& name) {
        std::optional<Line> next = pull();
        if (!next) fail(after, fmt::format("missing {} line for '{}' (end of file)", expected, name));
        if (!started_ && is_start(*next)) pushed_back_ = *next;  // the main loop must see the first START
        const Line line = std::move(*next);
        const json instruction = line.value.value("INSTRUCTION", json());
        if (instruction != expected)
            fail(line, fmt::format("missing {} line for '{}': found {}", expected, name, instruction.dump()));
        if (string_field(line, "NAME") != name)
            fail(line, fmt::format("{} line names '{}', expected '{}'", expected, string_field(line, "NAME"), name));
        return line;
    }

    void handle(const Line& line) {
        const auto it = line.value.find("INSTRUCTION");
        if (it == line.value.end() || !it->is_string()) fail(line, "missing INSTRUCTION");
        const std::string instruction = it->get<std::string>();
        if (instruction == "ANNOTATE") {
            const std::string annotation = string_field(line, "ANNOTATION");
            const int ops = static_cast<int>(w_.ops.size());
            if (annotation == "BACKWARD") {
                if (backward_at_ < 0) backward_at_ = ops;
                if (!micro_batches_.empty() && micro_batches_.back().forward_end < 0) micro_batches_.back().forward_end = ops;
            } else if (annotation == "MICRO_BATCH") {
                micro_batch(line, ops);
            } else if (annotation != "START") {
                fail(line, fmt::format("unknown ANNOTATION \"{}\"", annotation));
            }
        } else if (instruction == "CONSTANT") {
            const std::string name = string_field(line, "NAME");
            const Line memory = next_line(line, "MEMORY", name);
            const auto bytes = static_cast<std::uint64_t>(integer_field(memory, "MEMORY", 0));
            const TensorId t = new_tensor(name, bytes, kNoOp, true, -1);
            set_role(t, dtr_role_key(path_, line));
            bind(line, name, t);
        } else if (instruction == "CALL") {
            call(line);
        } else if (instruction == "MUTATE") {
            mutate(line);
        } else if (instruction == "COPY") {
            const TensorId src = lookup(line, string_field(line, "SRC"), "COPY source");
            bind(line, string_field(line, "DST"), src);
        } else if (instruction == "COPY_FROM") {
            const std::string dst = string_field(line, "DST");
            const TensorId src = lookup(line, string_field(line, "SRC"), "COPY_FROM source");
            const TensorId old = lookup(line, dst, "COPY_FROM destination");
            add_reference(src);
            bound_[dst] = src;
            rebind(dst, src);
            drop_reference(old);
        } else if (instruction == "RELEASE") {
            const auto found = bound_.find(string_field(line, "NAME"));
            if (found == bound_.end()) return;  // unknown names are ignored (README)
            const TensorId t = found->second;
            bound_.erase(found);
            drop_reference(t);
        } else if (instruction == "MEMORY" || instruction == "ALIAS") {
            fail(line, fmt::format("{} line without a preceding CONSTANT or CALL", instruction));
        } else {
            fail(line, fmt::format("unknown instruction \"{}\"", instruction));
        }
    }

    void call(const Line& line) {
        const std::string op_name = string_field(line, "NAME");
        Op op;
        op.name = op_name;
        op.cost_ms = static_cast<double>(integer_field(line, "TIME", 0)) / 1e6;
        for (const std::string& arg : string_list(line, "ARGS")) op.inputs.push_back(lookup(line, arg, "CALL argument"));
        const int index = static_cast<int>(w_.ops.size());
        read_dtr_op_keys(path_, line, index, op);
        const std::vector<std::string> results = string_list(line, "RESULT");
        const auto roles = dtr_roles_key(path_, line, results.size());
        for (const std::string& result : results) {
            const Line memory = next_line(line, "MEMORY", result);
            const auto bytes = static_cast<std::uint64_t>(integer_field(memory, "MEMORY", 0));
            const Line alias = next_line(memory, "ALIAS", result);
            const long long alias_index = integer_field(alias, "ALIAS", -1);
            TensorId alias_of = -1;
            if (alias_index >= 0) {
                if (alias_index >= static_cast<long long>(op.inputs.size()))
                    fail(alias, fmt::format("ALIAS {} of '{}' is not an argument index (the call has {} arguments)",
                                            alias_index, result, op.inputs.size()));
                alias_of = storage_of(op.inputs[static_cast<std::size_t>(alias_index)]);
            }
            const TensorId t = new_tensor(result, alias_of >= 0 ? 0 : bytes, index, false, alias_of);
            bind(line, result, t);
            if (roles) set_role(t, (*roles)[op.outputs.size()]);
            op.outputs.push_back(t);
        }
        // An in-place operator ("add_") writes its first argument (the tracer's write to a
        // constant: a CALL with a 0-byte result).
        const bool in_place = !op.inputs.empty() && op_name.size() > 1 && op_name.back() == '_';
        writes_.by_op.push_back(in_place ? std::vector<TensorId>{storage_of(op.inputs[0])} : std::vector<TensorId>{});
        w_.ops.push_back(std::move(op));
    }

    void mutate(const Line& line) {
        Op op;
        op.name = string_field(line, "NAME");
        op.cost_ms = static_cast<double>(integer_field(line, "TIME", 0)) / 1e6;
        const std::vector<std::string> args = string_list(line, "ARGS");
        for (const std::string& arg : args) op.inputs.push_back(lookup(line, arg, "MUTATE argument"));
        const auto it = line.value.find("MUTATE");
        if (it == line.value.end() || !it->is_array()) fail(line, "field MUTATE must be a list of argument indices");
        const int index = static_cast<int>(w_.ops.size());
        read_dtr_op_keys(path_, line, index, op);
        std::vector<std::pair<std::string, TensorId>> replaced;
        std::vector<char> mutated(args.size(), 0);
        for (const json& m : *it) {
            const long long k = dtr_mutate_index(path_, line, m);
            if (k < 0 || k >= static_cast<long long>(args.size()))
                fail(line, fmt::format("MUTATE index {} is not an argument index (the call has {} arguments)", m.dump(),
                                       args.size()));
            if (mutated[static_cast<std::size_t>(k)]++)
                fail(line, fmt::format("MUTATE index {} is listed twice", m.dump()));
            const std::string& name = args[static_cast<std::size_t>(k)];
            const TensorId old = op.inputs[static_cast<std::size_t>(k)];
            // Two names of one tensor (a COPY, or the name twice): it would get two new
            // versions and lose two references; the published runtime mutates it once.
            for (std::size_t j = 0; j < replaced.size(); ++j)
                if (replaced[j].second == old)
                    fail(line, fmt::format("MUTATE names one tensor twice: arguments '{}' and '{}' are the same tensor "
                                           "(each mutated tensor once)",
                                           replaced[j].first, name));
            const TensorId fresh = new_tensor(name + "$", w_.tensors[storage_of(old)].bytes, index, false, -1);
            // A new version is what the old one was (an activation updated in place stays one).
            if (recorded_role_[storage_of(old)]) set_role(fresh, w_.tensors[storage_of(old)].role);
            writes_.previous_version[fresh] = storage_of(old);
            op.outputs.push_back(fresh);
            replaced.push_back({name, old});
        }
        writes_.by_op.emplace_back();
        for (const auto& [name, old] : replaced) writes_.by_op.back().push_back(storage_of(old));
        w_.ops.push_back(std::move(op));
        // After the op: the names refer to the new versions, the old versions lose a reference.
        for (std::size_t i = 0; i < replaced.size(); ++i) {
            const auto& [name, old] = replaced[i];
            const TensorId fresh = w_.ops.back().outputs[i];
            add_reference(fresh);
            bound_[name] = fresh;
            rebind(name, fresh);
            drop_reference(old);
        }
    }

    void set_role(TensorId t, std::optional<TensorRole> role) {
        if (!role) return;
        w_.tensors[t].role = *role;
        recorded_role_[t] = 1;
    }

    // ANNOTATE MICRO_BATCH: a micro-batch starts with the next op (ops before the first
    // annotation belong to the first micro-batch).
    void micro_batch(const Line& line, int ops) {
        if (!micro_batches_.empty() && micro_batches_.back().first_op == ops && ops > 0)
            fail(line, fmt::format("MICRO_BATCH annotation right after the one at line {}: that micro-batch has no operators",
                                   micro_batch_lines_.back()));
        if (!micro_batches_.empty() && micro_batches_.back().forward_end < 0)
            fail(line, fmt::format("MICRO_BATCH annotation, but the micro-batch started at line {} has no BACKWARD "
                                   "annotation (each micro-batch needs its own)",
                                   micro_batch_lines_.back()));
        micro_batches_.push_back(MicroBatch{micro_batches_.empty() ? 0 : ops, -1});
        micro_batch_lines_.push_back(line.number);
    }

    void finish() {
        for (const auto& [after, t] : pending_release_) {
            if (after >= static_cast<int>(w_.ops.size())) continue;  // dropped after the last op: alive to the end anyway
            w_.ops[static_cast<std::size_t>(after)].release.push_back(t);
        }
        const int n = static_cast<int>(w_.ops.size());
        // A constant declared mid-way becomes resident just before the next op (one
        // declared after the last op, with the last op).
        for (TensorId t = 0; t < static_cast<TensorId>(w_.tensors.size()); ++t)
            if (w_.tensors[t].constant && w_.tensors[t].alias_of < 0 && arrival_[t] > 0 && n > 0)
                w_.ops[static_cast<std::size_t>(std::min(arrival_[t], n - 1))].arrivals.push_back(t);
        // The published runtime requests every tensor still referenced once more at the
        // end, walking its name table (first-binding order, the last binding of each name).
        std::vector<TensorId> requests;
        for (const std::string& name : name_order_) {
            const TensorId t = last_binding_.at(name);
            if (references_[t] > 0) requests.push_back(t);
        }
        w_.end_of_log_requests = std::move(requests);
        if (!micro_batches_.empty() && micro_batches_.back().forward_end < 0)
            throw InputError(fmt::format("{}:{}: the micro-batch this MICRO_BATCH annotation starts has no BACKWARD "
                                         "annotation (each micro-batch needs its own)",
                                         path_, micro_batch_lines_.back()));
        if (micro_batches_.size() > 1) {
            // Rules that know one forward pass keep the first micro-batch's (docs/workloads.md).
            w_.micro_batches = micro_batches_;
            w_.forward_end = micro_batches_.front().forward_end;
            w_.forward_end_rule = fmt::format("dtr log: BACKWARD annotation of the first of {} micro-batches",
                                              micro_batches_.size());
        } else if (backward_at_ >= 0) {
            w_.forward_end = backward_at_;
            w_.forward_end_rule = "dtr log: BACKWARD annotation";
        } else {
            w_.forward_end = n;
            w_.forward_end_rule = "dtr log: no BACKWARD annotation and no backward op; all ops forward";
            for (int i = 0; i < n; ++i)
                if (w_.ops[i].name.find("backward") != std::string::npos) {
                    w_.forward_end = i;
                    w_.forward_end_rule = "dtr log: first op named *backward*";
                    break;
                }
        }
        assign_dtr_roles(w_, recorded_role_, writes_);
    }

    std::string path_;
    DtrLineReader* lines_ = nullptr;
    std::optional<Line> pushed_back_;  // a START read ahead
    bool started_ = false;             // the first START was seen
    std::optional<InputError> deferred_;
    Workload w_;
    std::unordered_map<std::string, TensorId> bound_;
    std::unordered_map<std::string, TensorId> last_binding_;  // every name ever bound
    std::vector<std::string> name_order_;                     // names in first-binding order
    std::vector<int> arrival_;         // per tensor: op index a constant appears before, else -1
    std::vector<int> references_;      // per tensor: names referring to it
    std::vector<int> storage_values_;  // per storage: tensors in it still referenced
    std::vector<std::pair<int, TensorId>> pending_release_;
    std::vector<char> recorded_role_;           // per tensor: the log gave its role
    DtrWrites writes_;                          // in-place writes, for the roles it infers
    std::vector<MicroBatch> micro_batches_;     // forward_end -1 until its BACKWARD
    std::vector<long long> micro_batch_lines_;  // the line of each MICRO_BATCH annotation
    int backward_at_ = -1;
};

}  // namespace

Workload load_dtr_log(const std::string& path) { return DtrLogReader(path).read().workload; }

DtrLog load_dtr_log_detailed(const std::string& path) { return DtrLogReader(path).read(); }

}  // namespace memsim
