#include "parallel.h"

#include <omp.h>

namespace kmx {

thread_local int parallel_detail::serial_depth = 0;

// A thread with serial_depth > 0 that is in a team opened since (a nested
// parallel_for) is that team's master, thread 0, too.
int thread_index() { return parallel_detail::serial_depth > 0 ? 0 : omp_get_thread_num(); }

}  // namespace kmx
