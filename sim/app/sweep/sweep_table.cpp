#include "sim/app/sweep/sweep_table.h"

#include <map>

#include <fmt/format.h>

#include "sim/engine/run_status.h"
#include "sim/report/text_format.h"
#include "sim/report/charts/value_labels.h"

namespace memsim {

namespace {

std::string number_cell(const PointResult& r, const char* field, const char* format) {
    if (!r.summary.is_object() || !r.summary.contains(field) || !r.summary[field].is_number()) return "-";
    return fmt::format(fmt::runtime(format), r.summary[field].get<double>());
}

std::string bytes_cell(const PointResult& r, const char* field) {
    if (!r.summary.is_object() || !r.summary.contains(field) || !r.summary[field].is_number_unsigned()) return "-";
    return format_bytes_human(r.summary[field].get<std::uint64_t>());
}

}  // namespace

std::string sweep_table(const SweepPlan& plan, const std::vector<PointResult>& results) {
    std::vector<std::vector<std::string>> labels;
    std::vector<std::map<std::string, std::size_t>> position(plan.parameters.size());
    std::vector<std::string> header{"point"};
    for (std::size_t i = 0; i < plan.parameters.size(); ++i) {
        labels.push_back(value_labels(plan.parameters[i]));
        for (std::size_t v = 0; v < plan.parameters[i].values.size(); ++v) position[i].emplace(plan.parameters[i].values[v], v);
        header.push_back(plan.parameters[i].key);
    }
    for (const char* column : {"status", "time_ms", "overhead", "peak", "stall_ms"}) header.emplace_back(column);
    std::vector<std::vector<std::string>> rows{header};
    bool stopped = false;
    for (const PointResult& r : results) {
        std::vector<std::string> row{point_name(r.point)};
        for (std::size_t i = 0; i < plan.parameters.size(); ++i) {
            const std::string& value = r.point.values.at(i);
            const auto at = position[i].find(value);
            row.push_back(at == position[i].end() ? value : labels[i][at->second]);
        }
        const bool ok = status_finished(r.status);
        stopped = stopped || !ok;
        // A run that stopped has no iteration time: its clock says when it stopped.
        row.insert(row.end(), {r.status, ok ? number_cell(r, "time_ms", "{:.3f}") : "-",
                               ok ? number_cell(r, "overhead", "{:.3f}x") : "-", bytes_cell(r, "peak_bytes"),
                               ok ? number_cell(r, "stall_ms", "{:.3f}") : "-"});
        rows.push_back(std::move(row));
    }
    std::string out = aligned_table(rows);
    out += "time_ms: simulated iteration time; overhead: against the same workload and platform with no memory policy; "
           "peak: the allocator's peak\n";
    if (stopped) out += "a point that did not finish (every status but ok) has no time; its message is in results.csv\n";
    return out;
}

}  // namespace memsim
