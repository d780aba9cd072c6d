#include "sim/scenario/output_table.h"

#include <array>

#include <fmt/format.h>

#include "models/allocators.h"

namespace memsim {

std::span<const OutputRow> output_table() {
    // clang-format off
    static const std::array<OutputRow, 5> table = {{
        {"events", "events.csv", "the event log", false, true, true},
        {"gantt", "gantt.html", "the Gantt chart", false, true, true},
        {"trace", "trace.json", "the Chrome trace", false, true, true},
        {"torch_snapshot", "memory_snapshot.pickle", "the PyTorch memory snapshot", false, false, true,
         OutputNeeds::segment_allocator},
        {"summary", "summary.json", "the run's figures and its resolved scenario; written last", true, false, false},
    }};
    // clang-format on
    return table;
}

std::string output_key(const OutputRow& row) { return row.always ? std::string() : "output." + std::string(row.name); }

std::string needs_text(OutputNeeds needs) {
    switch (needs) {
        case OutputNeeds::nothing: return "";
        case OutputNeeds::segment_allocator:
            return fmt::format("policy.allocator: {}", fmt::join(segment_allocator_names(), " or "));
    }
    return "";
}

std::string outputs_help() {
    std::string text = "Outputs (output.KEY: true in the scenario, or --set output.KEY=true):\n";
    for (const OutputRow& row : output_table()) {
        const std::string needs = needs_text(row.needs);
        text += fmt::format("  {:<22} {:<23} {}{}\n", row.always ? "(always)" : output_key(row), row.file, row.summary,
                            needs.empty() ? "" : " (needs " + needs + ")");
    }
    return text;
}

}  // namespace memsim
