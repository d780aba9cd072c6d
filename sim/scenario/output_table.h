// The outputs a run writes, one row each: the one place an output is named. The scenario
// schema and parser (output.NAME: true or false), the policy check of what an output
// needs, the flags a sweep records in sweep.json and passes to every point, the files an
// output folder clears before a run (sim/report/output_folder.cpp), `memsim run --help`
// and docs/outputs.md ("The outputs a run writes", checked by a test) read these rows;
// the writers are joined to them by name in sim/report/outputs.cpp.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace memsim {

// What a run must have for an output to say anything (checked with the policy).
enum class OutputNeeds {
    nothing,
    segment_allocator,  // an allocator that models segments (AllocatorFlags::models_segments)
};

struct OutputRow {
    std::string_view name;     // output.NAME turns it on; an `always` row has no key
    std::string_view file;     // written into the run's output folder
    std::string_view summary;  // what it holds, for the file table and the docs
    bool always = false;       // written by every run (summary.json), last
    // Recorded in a sweep's sweep.json and passed to each of its points as --set output.NAME.
    bool sweep_point = false;
    // Written from the run's event log: a run that writes none of these records no log
    // (EngineConfig::record_events), so a summary-only run spends nothing per activity on it.
    bool reads_event_log = false;
    OutputNeeds needs = OutputNeeds::nothing;
};

// In the order a run writes them (the always row, summary.json, last of all).
std::span<const OutputRow> output_table();

// "output.events"; "" for an always row.
std::string output_key(const OutputRow& row);

// What `needs` asks of the scenario in words, for the docs and messages ("" for nothing).
std::string needs_text(OutputNeeds needs);

// Every output, its key, its file and what it needs (for `memsim run --help`).
std::string outputs_help();

}  // namespace memsim
