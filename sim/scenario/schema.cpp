#include "sim/scenario/schema.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/policy_table.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/policy_families.h"

namespace memsim {

namespace {

Kind kind_of(ParamKind kind) {
    switch (kind) {
        case ParamKind::Count: return Kind::Int;
        case ParamKind::Number: return Kind::Float;
        case ParamKind::Size: return Kind::Size;
        case ParamKind::Duration: return Kind::Time;
        case ParamKind::Flag: return Kind::Bool;
        case ParamKind::Text: return Kind::String;
    }
    return Kind::String;
}

std::vector<Field> param_fields(std::span<const ParamSpec> params) {
    std::vector<Field> fields;
    for (const ParamSpec& spec : params) fields.push_back({std::string(spec.key), kind_of(spec.kind)});
    return fields;
}

// The family's key: its rows that take parameters are its children, for dotted keys
// (--set policy.swap.prefetch.lead_ops=3, policy.swap.prefetch.budget.cap=300MiB).
Field choice(const std::string& family_key) {
    const PolicyFamily& family = policy_family(family_key);
    Field field{std::string(leaf_key(family)), Kind::Choice};
    for (const FamilyRow& row : family.rows)
        if (!row.params.empty()) field.children.push_back({std::string(row.name), Kind::RowParams, param_fields(row.params)});
    return field;
}

Field* child(Field& field, const std::string& key) {
    auto it = std::find_if(field.children.begin(), field.children.end(), [&](const Field& f) { return f.key == key; });
    return it == field.children.end() ? nullptr : &*it;
}

// Parameters written beside a family's key (policy.recompute.seed): children of the map
// the key sits in, after its own keys.
void add_flat_params(Field& root) {
    for (const PolicyFamily& family : policy_families()) {
        if (!family.flat_params) continue;
        Field* parent = &root;
        const std::string parent_path(parent_key(family));
        for (std::size_t start = 0; start <= parent_path.size();) {
            const std::size_t dot = std::min(parent_path.find('.', start), parent_path.size());
            parent = child(*parent, parent_path.substr(start, dot - start));
            if (!parent) throw std::logic_error("no schema map for " + parent_path);
            start = dot + 1;
        }
        for (const FamilyRow& row : family.rows)
            for (const ParamSpec& spec : row.params)
                if (!child(*parent, std::string(spec.key))) parent->children.push_back({std::string(spec.key), kind_of(spec.kind)});
    }
}

std::vector<Field> disk_keys() {
    return {{"bandwidth", Kind::Rate}, {"read_bandwidth", Kind::Rate}, {"write_bandwidth", Kind::Rate},
            {"latency", Kind::Time}, {"read_latency", Kind::Time}, {"write_latency", Kind::Time}};
}

// output.dir, then one true-or-false key per row of the outputs table.
std::vector<Field> output_fields() {
    std::vector<Field> fields = {{"dir", Kind::String}};
    for (const OutputRow& row : output_table())
        if (!row.always) fields.push_back({std::string(row.name), Kind::Bool});
    return fields;
}

Field make_schema() {
    // The table reads as the YAML it describes.
    // clang-format off
    Field root{"", Kind::Map, {
        {"name", Kind::String},
        {"description", Kind::String},
        {"workload", Kind::Map, {
            {"profile", Kind::Path}, {"batch", Kind::Int}, {"forward_end", Kind::Int}, {"costs", Kind::String},
            {"dtr_log", Kind::Path}, {"torch_snapshot", Kind::Path}, {"synthetic", Kind::String},
            {"n", Kind::Float}, {"layers", Kind::Float}, {"width", Kind::Float}, {"seed", Kind::Float},
            {"input", Kind::Float}, {"classes", Kind::Float}, {"hidden", Kind::Float}, {"heads", Kind::Float},
            {"seq", Kind::Float}, {"vocab", Kind::Float}, {"precision", Kind::String}, {"dropout", Kind::Bool},
            {"checkpointing", Kind::String}}},
        {"platform", Kind::PlatformRef, {
            {"name", Kind::String},
            {"gpu", Kind::Map, {{"speed_scale", Kind::Float}, {"preset", Kind::String},
                                 {"peak_flops", Kind::Map, {{"fp32", Kind::Float}, {"bf16", Kind::Float}, {"fp16", Kind::Float}}},
                                 {"memory_bandwidth", Kind::Rate}, {"launch_overhead", Kind::Time}, {"memory", Kind::Size}}},
            {"disk", Kind::Map, disk_keys()},
            {"disks", Kind::List, disk_keys()},
            {"gpus", Kind::Int},
            {"host", Kind::Map, {{"memory", Kind::Size}, {"link", Kind::Map, {{"bandwidth", Kind::Rate}, {"latency", Kind::Time}}},
                                  {"cpu", Kind::Map, {{"speed", Kind::Float}, {"memory_bandwidth", Kind::Rate}}}}},
            {"gpus_per_switch", Kind::Int},
            {"switch", Kind::Map, {{"bandwidth", Kind::Rate}}},
            {"gpu_offset_ms", Kind::Time},
            {"nvlink", Kind::Map, {{"bandwidth", Kind::Rate}, {"latency", Kind::Time}}},
            {"file", Kind::Path},
            {"memory", Kind::Map, {{"budget", Kind::Size}, {"budget_ratio", Kind::Float}, {"allow_ratio_above_one", Kind::Bool}}}}},
        {"policy", Kind::Map, {
            choice("policy.allocator"),
            choice("policy.semantics"),
            {"hybrid", Kind::Bool},
            {"data_parallel", Kind::Map, {{"zero", Kind::Int}, {"bucket", Kind::String}, {"offload", Kind::String},
                                          {"algorithm", Kind::String}}},
            {"swap", Kind::Map, {choice("policy.swap.mode"), choice("policy.swap.select"), choice("policy.swap.prefetch"),
                                  choice("policy.swap.placement"), choice("policy.swap.path")}},
            {"recompute", Kind::Map, {
                choice("policy.recompute.heuristic"), choice("policy.recompute.planner"), {"max_overhead", Kind::Float}}}}},
        {"output", Kind::Map, output_fields()},
        {"sweep", Kind::Sweep},
    }};
    // clang-format on
    add_flat_params(root);
    return root;
}

// "lead: a whole number in [0, 2147483647] ops, required; how many ops ...", indented.
std::string params_help(std::span<const ParamSpec> params, std::size_t indent) {
    std::string text;
    for (const ParamSpec& spec : params) {
        const std::string fallback = spec.fallback ? "default " + value_text(spec, *spec.fallback)
                                     : spec.optional ? std::string("optional") : std::string("required");
        text += fmt::format("{:{}}{}: {}, {}; {}\n", "", indent, spec.key, kind_and_range(spec), fallback, spec.summary);
    }
    return text;
}

}  // namespace

const Field& schema() {
    static const Field root = make_schema();
    return root;
}

namespace {

void collect_path_keys(const Field& field, const std::string& prefix, std::vector<std::string>& keys) {
    for (const Field& child : field.children) {
        const std::string key = prefix.empty() ? child.key : prefix + "." + child.key;
        if (child.kind == Kind::Path) keys.push_back(key);
        if (child.kind == Kind::Map || child.kind == Kind::PlatformRef) collect_path_keys(child, key, keys);
    }
}

}  // namespace

const std::vector<std::string>& path_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> found;
        collect_path_keys(schema(), "", found);
        return found;
    }();
    return keys;
}

std::string policy_choices_help() {
    std::string text =
        "Policy choices (--set KEY=VALUE or in the scenario). A choice with parameters is written\n"
        "NAME:VALUE or {NAME: VALUE} (one parameter) or {NAME: {KEY: VALUE, ...}}; the parameters of\n"
        "allocators, heuristics and recompute planners may also be written beside the key\n"
        "(policy.KEY, policy.recompute.KEY).\n";
    for (const PolicyFamily& family : policy_families()) {
        text += fmt::format("  {}:\n", family.key);
        std::size_t width = 14;
        for (const std::string& usage : row_usages(family)) width = std::max(width, usage.size());
        for (const FamilyRow& row : family.rows) {
            text += fmt::format("    {:<{}} {}\n", usage_of(row.name, row.params), width, row.summary);
            text += params_help(row.params, width + 7);
        }
    }
    return text;
}

}  // namespace memsim
