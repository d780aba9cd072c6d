# Each long test's cost for ctest's scheduler: seconds of one run, measured with
# `ctest --test-dir build -j2` on the 2-core machine (docs/performance.md, "The suite on a
# second machine").
# ctest starts the costliest tests first when it knows their costs, but its own record
# of them (Testing/Temporary/CTestCostData.txt) is one line per test split at spaces,
# and every name here has spaces: it never read one back, so a 60-second test could
# start last and end the run alone. A test missing from this list costs nothing and
# runs in number order, and so does a renamed one: ctest ignores a name here that
# matches no test. Refresh the list from a run's output when a long test is added.
set(MEMSIM_TEST_COSTS
  "readme: every command block runs as written" 19
  "trace: tools.trace.tests.test_slow.EveryModelTraces" 14
  "trace: tools.trace.tests.test_memsim_replay.TracerEnds" 12
  "trace: tools.trace.tests.test_slow.ShippedLogIsPinned" 12
  "trace: tools.trace.tests.test_memsim_replay.TracedTrainingSteps" 11
  "optimal: the dynamic program and the integer program agree on chains" 10
  "optimal solver crash: CBC over a grid of sizes, budgets and time limits answers in every cell" 8
  "trace: tools.trace.tests.test_memsim_replay.HostileTracerEnds" 8
  "python: tests/python/test_api.py" 8
  "optimal: never slower than any heuristic on the shared DTR logs" 7
  "optimal: on every shipped workload the engine replays the plan in the time the program predicts and within the budget" 7
  "python: tests/python/test_notebook.py" 7
  "browser cases in tests/sim/report/charts/test_plots_read_right_chromium.cpp" 6
  "trace: tools.trace.tests.test_training_step" 6
  "browser cases in tests/sim/report/test_gantt_overlap.cpp" 5
  "trace: tools.trace.tests.test_tracer" 5
  "trace: tools.trace.tests.test_memsim_replay.CommandErrors" 5
  "shared browser cases in tests/sim/report/test_gantt_overlap.cpp" 5
  "reference runtime on the shared DTR logs: published table and end-of-log requests, inceptionv4" 4
  "browser cases in tests/sim/report/charts/test_sweep_plots_chromium.cpp" 4
  "python: tests/python/test_trace.py" 4
  "browser cases in tests/sim/report/test_gantt_chromium.cpp" 4
  "reference runtime on the shared DTR logs: published table and end-of-log requests, lstm" 3
  "published DTR table, inceptionv4" 3
  "browser cases in tests/sim/report/test_output_gantt.cpp" 3
  "torch snapshot: tests/torch_snapshot/test_torch_snapshot.py" 3
  "storages and views: every swap policy reads back what a later operator reads through a view, on the DTR logs" 3
  "reference runtime on the shared DTR logs: published table and end-of-log requests, treelstm" 3
  "reference runtime on the shared DTR logs: published table and end-of-log requests, tv_densenet121" 3
  "reference runtime on the shared DTR logs: published table and end-of-log requests, unroll_gan" 3
)
