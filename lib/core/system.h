// system.h — what the machine gives this process: usable cores and memory,
// as the kernel's affinity mask and cgroup limits (v1 or v2) say, not just
// what the hardware has.
#pragma once
#include <cstddef>

namespace kmx {

// Cores this process may run on: the affinity mask's count, lowered to the
// cgroup CPU quota (quota / period, rounded up) when one is set. At least 1.
int usable_cores();

// Bytes the machine can give now: /proc/meminfo's MemAvailable, lowered to
// what a cgroup memory limit leaves (limit − usage). 0 if nothing is known.
size_t available_memory_bytes();

}  // namespace kmx
