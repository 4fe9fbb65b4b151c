#include "parallel.h"

#include <omp.h>

namespace kmx {

int thread_index() { return omp_get_thread_num(); }

}  // namespace kmx
