// Moved: the replay through an allocator is models/alloc/replay.h (the workload loaders
// do not depend on allocators). This forwarding header stays only until the engine's
// sources include the new path; nothing in models/workload/ includes it.
#pragma once

#include "models/alloc/replay.h"
