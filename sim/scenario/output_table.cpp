#include "sim/scenario/output_table.h"

#include <array>

#include <fmt/format.h>

#include "models/allocators.h"

namespace memsim {

std::span<const OutputRow> output_table() {
    // clang-format off
    static const std::array<OutputRow, 5> table = {{
        {"events", "events.csv", "the event log", false, true},
        {"gantt", "gantt.html", "the Gantt chart", false, true},
        {"trace", "trace.json", "the Chrome trace", false, true},
        {"torch_snapshot", "memory_snapshot.pickle", "the PyTorch memory snapshot", false, false,
         OutputNeeds::segment_allocator},
        {"summary", "summary.json", "the run's figures and its resolved scenario; written last", true, false},
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

}  // namespace memsim
