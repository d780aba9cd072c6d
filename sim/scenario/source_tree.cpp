#include "sim/scenario/source_tree.h"

namespace memsim {

// MEMSIM_SOURCE_DIR is defined for this file alone (CMakeLists.txt).
const char* source_tree() { return MEMSIM_SOURCE_DIR; }

}  // namespace memsim
