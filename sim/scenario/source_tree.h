// The memsim source tree this binary was built from: the last place a relative path in
// a scenario is looked up (so shipped scenarios run from anywhere) and where the tracer
// package lives (memsim trace, the Python module). Compiled into one file only
// (source_tree.cpp, CMakeLists.txt), so that no other object holds the checkout's path.
#pragma once

namespace memsim {

const char* source_tree();

}  // namespace memsim
