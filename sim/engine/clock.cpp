#include "sim/engine/clock.h"

namespace memsim {

void Clock::start() {
    mutex_ = simgrid::s4u::Mutex::create();
    cv_ = simgrid::s4u::ConditionVariable::create();
    start_s_ = simgrid::s4u::Engine::get_clock();
}

}  // namespace memsim
