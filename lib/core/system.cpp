// system.cpp — usable cores and available memory (see system.h). Linux reads
// /proc and /sys; elsewhere the hardware's figures are all there is.
#include "system.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace kmx {

namespace {

// The cgroup path of `controller` in /proc/self/cgroup ("" for cgroup v2's
// unified hierarchy), or false if this process is in none.
bool cgroup_path(const std::string &controller, std::string &path) {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {  // "id:controllers:path"
        const size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string list = line.substr(first + 1, second - first - 1);
        if (list.empty() && controller.empty()) {  // v2: "0::/path"
            path = line.substr(second + 1);
            return true;
        }
        std::stringstream controllers(list);
        std::string name;
        while (!controller.empty() && std::getline(controllers, name, ','))
            if (name == controller) {
                path = line.substr(second + 1);
                return true;
            }
    }
    return false;
}

// The file `name` in the controller's directory for `path`: in a
// container the hierarchy's root is often the process's own cgroup, so the
// mount root is tried after the full path.
std::string read_cgroup_file(const std::string &mount, const std::string &path, const char *name) {
    for (const std::string &dir : {mount + path, mount}) {
        std::ifstream in(dir + "/" + name);
        std::string text;
        if (std::getline(in, text)) return text;
    }
    return "";
}

// A CPU quota in cores (0: none). v2: "max 100000" or "200000 100000" in
// cpu.max; v1: cpu.cfs_quota_us (−1: none) over cpu.cfs_period_us.
double cgroup_cpu_quota() {
    std::string path;
    if (cgroup_path("cpu", path)) {
        const std::string quota = read_cgroup_file("/sys/fs/cgroup/cpu", path, "cpu.cfs_quota_us");
        const std::string period = read_cgroup_file("/sys/fs/cgroup/cpu", path, "cpu.cfs_period_us");
        if (!quota.empty() && !period.empty() && std::stoll(quota) > 0 && std::stoll(period) > 0)
            return double(std::stoll(quota)) / double(std::stoll(period));
        return 0;
    }
    if (!cgroup_path("", path)) return 0;
    std::stringstream max(read_cgroup_file("/sys/fs/cgroup", path, "cpu.max"));
    std::string quota, period;
    if (!(max >> quota >> period) || quota == "max") return 0;
    return std::stod(quota) / std::stod(period);
}

// Bytes a cgroup memory limit still allows (SIZE_MAX: no limit).
size_t cgroup_memory_room() {
    std::string path, limit, usage;
    if (cgroup_path("memory", path)) {
        limit = read_cgroup_file("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes");
        usage = read_cgroup_file("/sys/fs/cgroup/memory", path, "memory.usage_in_bytes");
    } else if (cgroup_path("", path)) {
        limit = read_cgroup_file("/sys/fs/cgroup", path, "memory.max");
        usage = read_cgroup_file("/sys/fs/cgroup", path, "memory.current");
    }
    if (limit.empty() || limit == "max" || usage.empty()) return SIZE_MAX;
    const double room = std::stod(limit) - std::stod(usage);
    if (room <= 0) return 0;
    return room >= double(SIZE_MAX) ? SIZE_MAX : size_t(room);
}

size_t meminfo_available() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    size_t kib = 0;
    while (in >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        in.ignore(256, '\n');
    }
    return 0;
}

}  // namespace

int usable_cores() {
    int cores = int(std::max(1u, std::thread::hardware_concurrency()));
#if defined(__linux__)
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) == 0) cores = std::max(1, CPU_COUNT(&mask));
    try {
        const double quota = cgroup_cpu_quota();
        if (quota > 0) cores = std::min(cores, std::max(1, int(std::ceil(quota))));
    } catch (const std::exception &) {  // an unreadable number: no quota known
    }
#endif
    return cores;
}

size_t available_memory_bytes() {
    size_t available = meminfo_available();
#if defined(__linux__)
    try {
        const size_t room = cgroup_memory_room();
        if (room != SIZE_MAX) available = available ? std::min(available, room) : room;
    } catch (const std::exception &) {  // an unreadable number: no limit known
    }
#endif
    return available;
}

}  // namespace kmx
