// The writers of the outputs table (sim/report/outputs.h), joined to its rows by name,
// and the run files an output folder clears (sim/report/output_folder.h), taken from it.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "file_support.h"
#include "sim/report/output_folder.h"
#include "sim/report/outputs.h"
#include "sim/scenario/output_table.h"

using namespace memsim;
namespace fs = std::filesystem;

TEST_CASE("outputs table: every row has one writer and every writer a row") {
    std::multiset<std::string> rows, writers;
    for (const OutputRow& row : output_table()) rows.emplace(row.name);
    for (const OutputWriterRow& writer : output_writers()) {
        writers.emplace(writer.name);
        CHECK(writer.write != nullptr);
    }
    CHECK(writers == rows);
    CHECK(rows == std::multiset<std::string>{"events", "gantt", "trace", "torch_snapshot", "summary"});
}

TEST_CASE("outputs table: an output folder's run files are the table's, summary.json first") {
    std::vector<std::string> run_files;
    for (const OutputFileRow& row : output_file_table())
        if (row.place == OutputPlace::run) run_files.push_back(row.name + ": " + row.what);
    CHECK(run_files == std::vector<std::string>{
                           "summary.json: the run's figures and its resolved scenario; written last",
                           "events.csv: the event log (output.events)",
                           "gantt.html: the Gantt chart (output.gantt)",
                           "trace.json: the Chrome trace (output.trace)",
                           "memory_snapshot.pickle: the PyTorch memory snapshot (output.torch_snapshot)",
                       });
}

TEST_CASE("outputs table: a new run's folder keeps no output an earlier run left, memory_snapshot.pickle included, and "
          "keeps the user's files") {
    const fs::path dir = test::fresh_dir("output_table_stale");
    const std::vector<std::string> earlier = {"summary.json", "events.csv", "gantt.html", "trace.json", "memory_snapshot.pickle",
                                              ".memory_snapshot.pickle.tmp123", "notes.txt", "memory_snapshot.pickle.bak"};
    for (const std::string& name : earlier) std::ofstream(dir / name) << "earlier\n";
    OutputFolder folder(dir.string(), "memsim run", EarlierOutputs::all);
    std::set<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir)) left.insert(entry.path().filename().string());
    CHECK(left == std::set<std::string>{"INCOMPLETE", ".memsim.lock", "notes.txt", "memory_snapshot.pickle.bak"});
    folder.complete();
}

TEST_CASE("outputs table: without a scenario only the outputs asked for are written, in the table's order") {
    const fs::path dir = test::fresh_dir("output_table_order");
    EventLog log;
    log.add({"compute", 0, 1, 0, "c", {}, 0});
    OutputSpec output;
    output.on = {"trace", "gantt"};
    CHECK(write_run_outputs(log, Summary{}, "t", dir.string(), output) ==
          std::vector<std::string>{(dir / "gantt.html").string(), (dir / "trace.json").string()});
    CHECK_FALSE(fs::exists(dir / "summary.json"));
    CHECK_FALSE(fs::exists(dir / "events.csv"));
    // Nothing asked for: no folder made.
    CHECK(write_run_outputs(log, Summary{}, "t", (dir / "none").string(), OutputSpec{}).empty());
    CHECK_FALSE(fs::exists(dir / "none"));
}
