#include "sim/scenario/schema.h"

#include <fmt/format.h>

#include "models/allocators.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/selection/swap_selection.h"

namespace memsim {

std::vector<std::string> semantics_names() { return row_names(semantics_table()); }
std::vector<std::string> swap_mode_names() { return row_names(swap_modes()); }
std::vector<std::string> swap_selection_names() { return row_names(swap_selections()); }

namespace {

template <typename Rows, typename Name>
std::string rows_help(const char* key, const Rows& rows, Name name) {
    std::string text = fmt::format("  {}:\n", key);
    for (const auto& row : rows) text += fmt::format("    {:<14} {}\n", name(row), row.summary);
    return text;
}

std::string names_help(const char* key, const std::vector<std::string>& names) {
    return fmt::format("  {}: {}\n", key, fmt::join(names, ", "));
}

}  // namespace

std::string policy_choices_help() {
    const auto plain = [](const auto& row) { return std::string(row.name); };
    std::string text = "Policy choices (--set KEY=VALUE or in the scenario):\n";
    text += names_help("policy.allocator", allocator_names());
    text += rows_help("policy.semantics", semantics_table(), plain);
    text += rows_help("policy.swap.mode", swap_modes(), plain);
    text += rows_help("policy.swap.select", swap_selections(), plain);
    text += rows_help("policy.swap.prefetch", prefetch_rules(), [](const PrefetchRow& row) { return prefetch_usage(row); });
    text += names_help("policy.recompute.heuristic", eviction_heuristic_names());
    text += names_help("policy.recompute.planner", recompute_planner_names());
    return text;
}

std::vector<std::string> prefetch_usages() {
    std::vector<std::string> usages;
    for (const PrefetchRow& row : prefetch_rules()) usages.push_back(prefetch_usage(row));
    return usages;
}

const Field& schema() {
    static const Field root{"", Kind::Map, {
        {"name", Kind::String},
        {"description", Kind::String},
        {"workload", Kind::Map, {
            {"profile", Kind::Path}, {"batch", Kind::Int}, {"forward_end", Kind::Int}, {"costs", Kind::String},
            {"dtr_log", Kind::Path}, {"torch_snapshot", Kind::Path}, {"synthetic", Kind::String},
            {"n", Kind::Float}, {"layers", Kind::Float}, {"width", Kind::Float}, {"seed", Kind::Float},
            {"input", Kind::Float}, {"classes", Kind::Float}}},
        {"platform", Kind::PlatformRef, {
            {"name", Kind::String},
            {"gpu", Kind::Map, {{"speed_scale", Kind::Float}}},
            {"disk", Kind::Map, {
                {"bandwidth", Kind::Rate}, {"read_bandwidth", Kind::Rate}, {"write_bandwidth", Kind::Rate},
                {"latency", Kind::Time}, {"read_latency", Kind::Time}, {"write_latency", Kind::Time}}},
            {"memory", Kind::Map, {{"budget", Kind::Size}, {"budget_ratio", Kind::Float}, {"allow_ratio_above_one", Kind::Bool}}}}},
        {"policy", Kind::Map, {
            {"allocator", Kind::String, {}, allocator_names()},
            {"torch_alloc_conf", Kind::String},
            {"semantics", Kind::String, {}, semantics_names()},
            {"hybrid", Kind::Bool},
            {"swap", Kind::Map, {
                {"mode", Kind::String, {}, swap_mode_names()},
                {"select", Kind::String, {}, swap_selection_names()},
                {"prefetch", Kind::Prefetch, {{"lead_ops", Kind::Int}, {"lead_ms", Kind::Time}, {"budget", Kind::Map, {{"cap", Kind::Size}}}}}}},
            {"recompute", Kind::Map, {
                {"heuristic", Kind::String, {}, eviction_heuristic_names()},
                {"planner", Kind::String, {}, recompute_planner_names()},
                {"seed", Kind::Int}, {"max_overhead", Kind::Float},
                {"a", Kind::Float}, {"b", Kind::Float}, {"c", Kind::Float}, {"d", Kind::Float}}}}},
        {"output", Kind::Map, {
            {"dir", Kind::String}, {"events", Kind::Bool}, {"gantt", Kind::Bool}, {"trace", Kind::Bool},
            {"torch_snapshot", Kind::Bool}}},
        {"sweep", Kind::Sweep},
    }};
    return root;
}

}  // namespace memsim
