#include "models/workload/mnn_profile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <simdjson.h>

#include "models/io/input_file.h"
#include "models/workload/forward_end.h"
#include "models/workload/mnn_roles.h"
#include "models/workload/input_error.h"
#include "models/workload/io_info_reader.h"
#include "models/workload/mnn_files.h"
#include "models/workload/workload_limits.h"

namespace memsim {

namespace fs = std::filesystem;
namespace dom = simdjson::dom;

// The folder and JSON helpers of mnn_files.h.
using namespace mnn;

namespace {

class Loader {
public:
    Loader(fs::path dir, int batch) : dir_(std::move(dir)), batch_(batch) {}

    Workload load(std::optional<int> forward_end, CostModel costs) {
        if (batch_ <= 0) throw InputError(fmt::format("{}: batch must be a positive integer, got {}", dir_.string(), batch_));
        model_ = find_model_name(dir_);
        w_.name = model_;
        w_.batch = batch_;
        w_.source = dir_.string();
        check_batch_exists();
        load_io_info();
        load_tensor_sizes();
        load_resize_info();
        load_costs(costs);
        load_redundant_parents();
        check_lifetimes();
        if (forward_end) {
            if (*forward_end < 1 || *forward_end > static_cast<int>(w_.ops.size()))
                throw InputError(fmt::format("{}: forward_end {} out of range [1, {}]", dir_.string(), *forward_end,
                                             w_.ops.size()));
            w_.forward_end = *forward_end;
            w_.forward_end_rule = "given by the scenario";
        } else {
            ForwardEndGuess g = infer_forward_end(w_);
            w_.forward_end = g.forward_end;
            w_.forward_end_rule = g.rule;
        }
        assign_mnn_roles(w_);
        check_workload_limits(w_);
        return std::move(w_);
    }

private:
    // A batch the profile was not measured at is the common mistake: name the ones it has.
    void check_batch_exists() const {
        const fs::path f = file("tensor_size");
        if (present(f)) return;
        // workload.costs: linear_fit is the way to other batches for operator times, not for
        // tensor sizes: say so, since it is the first thing to try.
        fail(f, fmt::format("cannot open file: the profile has no batch {} (batches measured: {}); workload.costs: "
                            "linear_fit fits operator times to a batch whose tensor sizes were measured, but not the "
                            "sizes themselves, so pick one of those batches",
                            batch_, batch_list(batches_with(dir_, model_, "tensor_size"))));
    }

    static std::string batch_list(const std::vector<int>& batches) {
        return batches.empty() ? std::string("none") : fmt::format("{}", fmt::join(batches, " "));
    }

    fs::path file(const std::string& kind, bool with_batch = true) const {
        return dir_ / (with_batch ? fmt::format("{}.{}.{}.json", model_, batch_, kind) : fmt::format("{}.{}.json", model_, kind));
    }

    [[noreturn]] void fail(const fs::path& f, const std::string& what) const {
        throw InputError(fmt::format("{}: {}", f.string(), what));
    }

    // The file's document, read straight from simdjson's DOM into the workload (no JSON
    // objects in between); valid until the next parse.
    dom::element parse(const fs::path& f) {
        text_ = simdjson::padded_string(read_text(f));
        dom::element doc;
        if (const auto error = parser_.parse(text_).get(doc)) fail(f, fmt::format("invalid JSON: {}", simdjson::error_message(error)));
        if (const auto twice = duplicate_key(doc)) fail(f, fmt::format("{} is written twice (each key once)", *twice));
        return doc;
    }

    std::vector<TensorId> tensor_list(const fs::path& f, const IoListField& field, const char* key, int op) {
        if (!field.present || !field.is_list) fail(f, fmt::format("op {}: field '{}' missing or not a list", op, key));
        if (field.bad_value)
            fail(f, fmt::format("op {}: field '{}' holds {} (tensor ids are integers >= 0)", op, key, *field.bad_value));
        std::vector<TensorId> out;
        out.reserve(field.values.size());
        for (long long v : field.values) {
            if (v < 0 || v > std::numeric_limits<TensorId>::max())
                fail(f, fmt::format("op {}: field '{}' holds {} (tensor ids are integers >= 0)", op, key, v));
            out.push_back(static_cast<TensorId>(v));
        }
        return out;
    }

    void load_io_info() {
        const fs::path f = file("io_info", false);
        IoInfo info;
        try {
            info = read_io_info(read_text(f));
        } catch (const std::runtime_error& e) {
            fail(f, fmt::format("invalid JSON: {}", e.what()));
        }
        if (info.duplicate_key) fail(f, fmt::format("{} is written twice (each key once)", *info.duplicate_key));
        if (!info.is_array || info.entries.empty()) fail(f, "expected a non-empty list of operators");
        const int n = static_cast<int>(info.entries.size());
        w_.ops.resize(n);
        w_.tensors.resize(n);  // tensor i is the output of op i; scratch ids come after
        for (int i = 0; i < n; ++i) w_.tensors[i].name = std::to_string(i);
        for (int i = 0; i < n; ++i) {
            const IoEntry& e = info.entries[i];
            if (!e.is_object) fail(f, fmt::format("entry {} is not an object", i));
            if (!e.id || *e.id != i) fail(f, fmt::format("entry {}: 'id' is {} (must equal its position {})", i, e.id_text, i));
            Op& op = w_.ops[i];
            op.name = e.name ? *e.name : fmt::format("op{}", i);
            op.inputs = tensor_list(f, e.inputs, "inputs", i);
            op.outputs = tensor_list(f, e.outputs, "outputs", i);
            op.release = tensor_list(f, e.release, "release", i);
            for (TensorId t : op.outputs) {
                if (t >= n) fail(f, fmt::format("op {}: output tensor {} unknown (ids go up to {})", i, t, n - 1));
                if (w_.tensors[t].producer != kNoOp)
                    fail(f, fmt::format("op {}: output tensor {} already produced by op {}", i, t, w_.tensors[t].producer));
                w_.tensors[t].producer = i;
            }
        }
    }

    void load_tensor_sizes() {
        const fs::path f = file("tensor_size");
        dom::object j;
        if (parse(f).get_object().get(j) != simdjson::SUCCESS) fail(f, "expected an object mapping tensor id to bytes");
        const int n = static_cast<int>(w_.ops.size());
        for (const dom::key_value_pair field : j) {
            const std::string key(field.key);
            const std::optional<std::uint64_t> size = non_negative_integer(field.value);
            if (!size) fail(f, fmt::format("tensor '{}': size {} is not an integer >= 0", key, dump(field.value)));
            const std::uint64_t bytes = *size;
            // "i" (op i's output) or "i:k" (its scratch k), written exactly so: "00", " 1",
            // "+1" or "1:2:3" would be a second name for a tensor, or one nothing reads.
            const std::size_t colon = key.find(':');
            const std::optional<int> index = canonical_index(std::string_view(key).substr(0, colon));
            const bool scratch_ok = colon == std::string::npos || canonical_index(std::string_view(key).substr(colon + 1));
            const int op = index && scratch_ok ? *index : -1;
            if (op < 0 || op >= n)
                fail(f, fmt::format("tensor '{}': unknown tensor id (expected 'i' or 'i:k', decimal without sign or leading "
                                    "zero, with 0 <= i < {})",
                                    key, n));
            if (colon == std::string::npos) {
                w_.tensors[op].bytes = bytes;
                sized_outputs_.insert(op);
            } else {
                scratch_sizes_[key] = bytes;
            }
        }
        for (int i = 0; i < n; ++i)
            for (TensorId t : w_.ops[i].outputs)
                if (!sized_outputs_.count(t)) fail(f, fmt::format("tensor '{}' (output of op {}) has no size", t, i));
    }

    // The elements of one operator's event list (a non-list holds itself; null holds none).
    static std::vector<dom::element> events_of(dom::element list) {
        std::vector<dom::element> events;
        if (list.type() == dom::element_type::ARRAY) {
            for (dom::element ev : dom::array(list)) events.push_back(ev);
        } else if (list.type() == dom::element_type::OBJECT) {
            for (dom::key_value_pair field : dom::object(list)) events.push_back(field.value);
        } else if (list.type() != dom::element_type::NULL_VALUE) {
            events.push_back(list);
        }
        return events;
    }

    void load_resize_info() {
        const fs::path f = file("resize_info");
        const dom::element doc = parse(f);
        const int n = static_cast<int>(w_.ops.size());
        dom::array j;
        if (doc.get_array().get(j) != simdjson::SUCCESS || static_cast<int>(j.size()) != n)
            fail(f, fmt::format("expected a list of {} per-operator lists, got {}", n,
                                doc.is_array() ? std::to_string(j.size()) + " entries" : type_name(doc)));
        std::unordered_map<std::string, TensorId> ids;
        int i = 0;
        for (dom::element per_op : j) {
            std::set<std::string> live;
            for (const dom::element ev : events_of(per_op)) {
                dom::array pair;
                std::string_view kind_text, name_text;
                if (ev.get_array().get(pair) != simdjson::SUCCESS || pair.size() != 2 ||
                    pair.at(0).get_string().get(kind_text) != simdjson::SUCCESS ||
                    pair.at(1).get_string().get(name_text) != simdjson::SUCCESS)
                    fail(f, fmt::format("op {}: event {} is not [\"alloc\"|\"free\", \"op:k\"]", i, dump(ev)));
                const std::string kind(kind_text), name(name_text);
                if (kind != "alloc" && kind != "free") fail(f, fmt::format("op {}: event kind '{}' (expected alloc or free)", i, kind));
                if (name.rfind(std::to_string(i) + ":", 0) != 0)
                    fail(f, fmt::format("op {}: scratch '{}' does not belong to this operator (expected '{}:k')", i, name, i));
                auto size = scratch_sizes_.find(name);
                if (size == scratch_sizes_.end())
                    fail(f, fmt::format("op {}: scratch '{}' has no size in {}", i, name, file("tensor_size").filename().string()));
                if (kind == "alloc") {
                    if (!live.insert(name).second) fail(f, fmt::format("op {}: scratch '{}' allocated twice", i, name));
                    auto [it, fresh] = ids.emplace(name, static_cast<TensorId>(w_.tensors.size()));
                    if (fresh) {
                        Tensor t;
                        t.name = name;
                        t.bytes = size->second;
                        t.producer = i;
                        t.scratch = true;
                        w_.tensors.push_back(t);
                    }
                    w_.ops[i].scratch.push_back({true, it->second});
                } else {
                    if (!live.erase(name)) fail(f, fmt::format("op {}: scratch '{}' freed but never allocated", i, name));
                    w_.ops[i].scratch.push_back({false, ids.at(name)});
                }
            }
            // A scratch buffer never freed by its operator stays allocated to the end of the
            // iteration (it happens in real MNN logs: Squeezenet op 99).
            ++i;
        }
    }

    void load_costs(CostModel model) {
        if (model == CostModel::Measured) {
            const fs::path f = file("cost_info");
            if (!present(f))
                fail(f, fmt::format("no cost file for batch {}: operator times were measured for batches {}; set "
                                    "workload.costs: linear_fit to extrapolate them per operator",
                                    batch_, batch_list(batches_with(dir_, model_, "cost_info"))));
            const std::vector<double> costs = read_costs(f);
            for (std::size_t i = 0; i < costs.size(); ++i) w_.ops[i].cost_ms = costs[i];
            return;
        }
        const std::vector<int> batches = batches_with(dir_, model_, "cost_info");
        if (batches.size() < 2)
            fail(file("cost_info"), fmt::format("linear_fit needs cost files for at least two batches (found: {})",
                                                batch_list(batches)));
        // Least squares per operator over the measured batches.
        const std::size_t n = w_.ops.size();
        std::vector<double> sy(n, 0.0), sxy(n, 0.0);
        double sx = 0, sxx = 0;
        for (int b : batches) {
            const std::vector<double> costs = read_costs(dir_ / fmt::format("{}.{}.cost_info.json", model_, b));
            sx += b;
            sxx += static_cast<double>(b) * b;
            for (std::size_t i = 0; i < n; ++i) {
                sy[i] += costs[i];
                sxy[i] += b * costs[i];
            }
        }
        const double m = static_cast<double>(batches.size());
        const double denom = m * sxx - sx * sx;
        for (std::size_t i = 0; i < n; ++i) {
            const double slope = (m * sxy[i] - sx * sy[i]) / denom;
            const double intercept = (sy[i] - slope * sx) / m;
            const double cost = intercept + slope * batch_;
            if (!std::isfinite(cost))
                fail(file("cost_info"), fmt::format("op {} ({}): the linear fit gives {} ms at batch {}", i, w_.ops[i].name, cost,
                                                    batch_));
            w_.ops[i].cost_ms = std::max(0.0, cost);
        }
        w_.cost_note = fmt::format("costs: per-operator linear fit over batches {}", batch_list(batches));
    }

    // One cost per operator, validated.
    std::vector<double> read_costs(const fs::path& f) {
        dom::object j;
        if (parse(f).get_object().get(j) != simdjson::SUCCESS) fail(f, "expected an object mapping operator index to milliseconds");
        const int n = static_cast<int>(w_.ops.size());
        std::vector<double> costs(n, 0.0);
        std::vector<char> seen(n, 0);
        for (const dom::key_value_pair field : j) {
            const std::string key(field.key);
            const int op = canonical_index(key).value_or(-1);
            if (op < 0 || op >= n)
                fail(f, fmt::format("key '{}': unknown operator index (0..{}, decimal without sign or leading zero)", key, n - 1));
            const std::optional<double> ms = number(field.value);
            if (!ms || *ms < 0 || !std::isfinite(*ms))
                fail(f, fmt::format("op {}: cost {} is not a number of milliseconds >= 0", op, dump(field.value)));
            // Checked here, not only in the iteration's total: linear_fit multiplies and
            // subtracts the measured costs, and 1e308 ms became inf - inf, then 0.
            if (*ms > kMaxComputeMs)
                fail(f, fmt::format("op {}: cost {} ms is more than a whole iteration may take ({:g} ms)", op, dump(field.value),
                                    kMaxComputeMs));
            costs[op] = *ms;
            seen[op] = 1;
        }
        for (int i = 0; i < n; ++i)
            if (!seen[i]) fail(f, fmt::format("op {} ({}) has no cost", i, w_.ops[i].name));
        return costs;
    }

    void load_redundant_parents() {
        const fs::path f = file("redundent_parent");
        if (!present(f)) return;  // optional
        dom::object j;
        if (parse(f).get_object().get(j) != simdjson::SUCCESS) fail(f, "expected an object mapping scratch id to scratch id");
        for (const dom::key_value_pair field : j) {
            const std::string key(field.key);
            std::string_view parent;
            if (field.value.get_string().get(parent) != simdjson::SUCCESS)
                fail(f, fmt::format("'{}': parent {} is not a scratch id string", key, dump(field.value)));
            if (!scratch_sizes_.count(key)) fail(f, fmt::format("'{}': unknown scratch id", key));
            if (!scratch_sizes_.count(std::string(parent)))
                fail(f, fmt::format("'{}': parent '{}' is an unknown scratch id", key, parent));
        }
        // The buffers alias each other only inside one operator; the replay does not use them
        // (as in the reference), so they are validated and otherwise ignored.
    }

    // Every input must be produced earlier and still alive; a tensor is released once.
    void check_lifetimes() {
        const fs::path f = file("io_info", false);
        const int n = static_cast<int>(w_.ops.size());
        std::vector<int> released_at(w_.tensors.size(), -1);
        for (int i = 0; i < n; ++i) {
            const Op& op = w_.ops[i];
            for (TensorId t : op.inputs) {
                if (t >= n) fail(f, fmt::format("op {}: input tensor {} unknown (ids go up to {})", i, t, n - 1));
                if (w_.tensors[t].producer == kNoOp || w_.tensors[t].producer >= i)
                    fail(f, fmt::format("op {}: input tensor {} is not produced by an earlier operator", i, t));
                if (released_at[t] >= 0)
                    fail(f, fmt::format("op {}: input tensor {} used after its release at op {}", i, t, released_at[t]));
            }
            for (TensorId t : op.release) {
                if (t >= n || w_.tensors[t].producer == kNoOp || w_.tensors[t].producer > i)
                    fail(f, fmt::format("op {}: releases tensor {} which is not produced yet", i, t));
                if (released_at[t] >= 0)
                    fail(f, fmt::format("op {}: tensor {} released twice (first at op {})", i, t, released_at[t]));
                released_at[t] = i;
            }
        }
    }

    fs::path dir_;
    int batch_;
    std::string model_;
    Workload w_;
    std::set<TensorId> sized_outputs_;
    std::map<std::string, std::uint64_t> scratch_sizes_;
    dom::parser parser_;  // reused for every file of the profile
    simdjson::padded_string text_;
};

}  // namespace

Workload load_mnn_profile(const std::string& dir, int batch, std::optional<int> forward_end, CostModel costs) {
    return Loader(dir, batch).load(forward_end, costs);
}

std::vector<int> profile_batches(const std::string& dir, const std::string& kind) {
    return batches_with(dir, find_model_name(dir), kind);
}

}  // namespace memsim
