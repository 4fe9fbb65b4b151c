// The model file: header, section table, and the sections' fields.
//
//   meta      u32 method, multiclass, has_bias, kernel type; f64 gamma, coef0;
//             u32 degree; u64 d, classes, points, support vectors, machines;
//             f64 objective, kkt violation; u64 iterations; f64 seconds;
//             f64 C, lambda (one-class: ν in C's place)
//   classes   f64 x classes (strictly increasing; none for regression)
//   points    f64 x points x d (row-major; support vectors first); a precomputed
//             kernel's (kernel type 5): f64 x points, their serial numbers 1..d-1
//   machines  per machine: i32 positive, negative (regression: 0, -1); f64 bias;
//             u64 coefficients; {u64 point, f64 coefficient} each;
//             u64 kernel clusters k; if k > 0: u64 sample m,
//             {u64 point, i32 cluster} x m, f64 cluster_self x k, u64 cluster_size x k;
//             u64 ranges r (0: one global model; else k, or the routes when k = 0);
//             if r > 0: u64 cluster_begin x (r+1), u64 biases (0 or r), f64 cluster bias x biases
//   routes    u64 routes; f64 x routes x d (input-space routing centers)
//   names     (version 3) u64 names (= classes); {u32 length, length bytes} each
//             (version 4: also 0 names, for a model whose classes have none)
//   sigmoids  (version 4) u64 sigmoids (= machines); {f64 A, f64 B} each (Platt's
//             P(positive | f) = 1 / (1 + exp(A f + B)) of each machine); version 5:
//             empty when the model has none
//   sparse points (version 5, a model whose points are CSR; its points section is
//             then empty) u64 stored values; u64 x (points + 1) row offsets (0 first,
//             non-decreasing, the stored count last); {u32 column, f64 value} x stored
//             (columns below d, increasing within a point)
#include "model_file.h"

#include <cmath>
#include <cstring>

#include "io/binary_file.h"
#include "io/byte_codec.h"
#include "core/error.h"
#include "io/crc32.h"

namespace kmx {

namespace {

enum SectionId : uint32_t {
    kMeta = 1,
    kClasses = 2,
    kPoints = 3,
    kMachines = 4,
    kRoutes = 5,
    kNames = 6,
    kSigmoids = 7,
    kSparsePoints = 8
};
constexpr uint32_t kSectionCount = 8;  // version 5; version 4 has the first seven, 3 the first six, 2 the first five
constexpr uint32_t kOldestFormatVersion = 2;
constexpr uint32_t kNamesFormatVersion = 3;
constexpr uint32_t kSigmoidsFormatVersion = 4;
constexpr uint32_t kSparsePointsFormatVersion = 5;
constexpr size_t kHeaderBytes = 16;
constexpr size_t kTableEntryBytes = 24;
const char *const kSectionNames[] = {"",
                                     "meta section",
                                     "classes section",
                                     "points section",
                                     "machines section",
                                     "routes section",
                                     "class names section",
                                     "sigmoids section",
                                     "sparse points section"};

uint32_t section_count(uint32_t version) { return version + 3; }

// The oldest version that holds everything the model has, so a model
// without names or sigmoids is written as older kmx wrote it.
uint32_t format_version(const Model &model) {
    if (model.sparse_points()) return kSparsePointsFormatVersion;
    if (model.probabilities()) return kSigmoidsFormatVersion;
    return model.class_names.empty() ? kOldestFormatVersion : kNamesFormatVersion;
}

// ------------------------------------------------------------------ writing

void write_meta(ByteWriter &w, const Model &m) {
    w.u32(uint32_t(m.method));
    w.u32(uint32_t(m.multiclass));
    w.u32(m.has_bias ? 1 : 0);
    w.u32(uint32_t(m.kernel.type));
    w.f64(m.kernel.gamma);
    w.f64(m.kernel.coef0);
    w.u32(uint32_t(m.kernel.degree));
    w.u64(uint64_t(m.d));
    w.u64(m.classes.size());
    w.u64(uint64_t(m.n_points));
    w.u64(uint64_t(m.support_vectors));
    w.u64(m.machines.size());
    w.f64(m.stats.objective);
    w.f64(m.stats.kkt_violation);
    w.u64(uint64_t(m.stats.iterations));
    w.f64(m.stats.seconds);
    w.f64(m.one_class() ? m.nu : m.C);
    w.f64(m.lambda);
}

void write_doubles(ByteWriter &w, const std::vector<double> &values) {
    for (double v : values) w.f64(v);
}

void write_partition(ByteWriter &w, const MachinePartition &local) {
    const KernelPartition &p = local.partition;
    w.u64(uint64_t(p.k));
    if (p.k > 0) {
        w.u64(p.sample_rows.size());
        for (size_t i = 0; i < p.sample_rows.size(); ++i) {
            w.u64(uint64_t(p.sample_rows[i]));
            w.i32(p.sample_cluster[i]);
        }
        write_doubles(w, p.cluster_self);
        for (int64_t size : p.cluster_size) w.u64(uint64_t(size));
    }
    w.u64(uint64_t(local.clusters()));
    for (int64_t begin : local.cluster_begin) w.u64(uint64_t(begin));
    if (local.clusters() > 0) {
        w.u64(local.cluster_bias.size());
        write_doubles(w, local.cluster_bias);
    }
}

void write_machines(ByteWriter &w, const Model &m) {
    for (const BinaryMachine &machine : m.machines) {
        w.i32(machine.positive);
        w.i32(machine.negative);
        w.f64(machine.bias);
        w.u64(machine.coef.size());
        for (size_t j = 0; j < machine.coef.size(); ++j) {
            w.u64(uint64_t(machine.sv[j]));
            w.f64(machine.coef[j]);
        }
        write_partition(w, machine.local);
    }
}

void write_section(ByteWriter &w, const Model &m, uint32_t id) {
    switch (id) {
        case kMeta:
            write_meta(w, m);
            break;
        case kClasses:
            write_doubles(w, m.classes);
            break;
        case kPoints:
            if (!m.sparse_points()) write_doubles(w, m.points);
            break;
        case kSparsePoints:
            w.u64(m.points.size());
            for (const int64_t offset : m.point_row_ptr) w.u64(uint64_t(offset));
            for (size_t e = 0; e < m.points.size(); ++e) {
                w.u32(uint32_t(m.point_col[e]));
                w.f64(m.points[e]);
            }
            break;
        case kMachines:
            write_machines(w, m);
            break;
        case kNames:
            w.u64(m.class_names.size());
            for (const std::string &name : m.class_names) {
                w.u32(uint32_t(name.size()));
                w.raw(name.data(), name.size());
            }
            break;
        case kSigmoids:
            if (!m.probabilities()) break;  // version 5 without sigmoids: an empty section
            w.u64(m.sigmoids.size());
            for (const PlattSigmoid &sigmoid : m.sigmoids) {
                w.f64(sigmoid.A);
                w.f64(sigmoid.B);
            }
            break;
        default:
            w.u64(uint64_t(m.routes));
            write_doubles(w, m.route_centers);
            break;
    }
}

// ------------------------------------------------------------------ reading

struct Section {
    const unsigned char *data = nullptr;
    size_t len = 0;
};

[[noreturn]] void bad(const char *name, const char *what) { fail(KMX_E_FORMAT, "%s: %s", name, what); }

void require_format(bool ok, const ByteReader &r, const char *what) {
    if (!ok) fail(KMX_E_FORMAT, "%s: %s", r.what(), what);
}

double finite(ByteReader &r, const char *what) {
    const double v = r.f64();
    require_format(std::isfinite(v), r, what);
    return v;
}

int64_t index_below(ByteReader &r, uint64_t limit, const char *what) {
    const uint64_t v = r.u64();
    require_format(v < limit, r, what);
    return int64_t(v);
}

// Reads the header and table; returns the format version and the sections, checksums verified.
uint32_t read_sections(const unsigned char *bytes, size_t len, const char *name, Section (&out)[kSectionCount + 1]) {
    if (len < kHeaderBytes || std::memcmp(bytes, kModelMagic, sizeof kModelMagic) != 0)
        bad(name, "not a kmx model file (no KMXMODEL magic)");
    ByteReader header(bytes + 8, len - 8, name);
    const uint32_t version = header.u32();
    if (version < kOldestFormatVersion || version > kModelFormatVersion)
        fail(KMX_E_FORMAT, "%s: model format version %u; this kmx reads versions %u to %u", name, version,
             kOldestFormatVersion, kModelFormatVersion);
    const uint32_t sections = section_count(version);
    if (header.u32() != sections) bad(name, "unexpected number of sections");
    const size_t table_end = kHeaderBytes + sections * kTableEntryBytes;
    if (len < table_end + 4) bad(name, "truncated in the section table");
    ByteReader check(bytes + table_end, 4, name);
    if (check.u32() != crc32(bytes, table_end) && kCheckCrcs)
        bad(name, "the header checksum does not match (corrupt file)");
    for (uint32_t s = 0; s < sections; ++s) {
        const uint32_t id = header.u32(), crc = header.u32();
        const uint64_t offset = header.u64(), length = header.u64();
        if (id < 1 || id > sections || out[id].data) bad(name, "bad section table");
        if (offset < table_end + 4 || offset > len || length > len - offset)
            fail(KMX_E_FORMAT, "%s: the %s lies outside the file (truncated?)", name, kSectionNames[id]);
        out[id] = {bytes + offset, size_t(length)};
        if (crc32(out[id].data, out[id].len) != crc && kCheckCrcs)
            fail(KMX_E_FORMAT, "%s: the %s checksum does not match (corrupt file)", name, kSectionNames[id]);
    }
    return version;
}

struct Counts {
    uint64_t classes, points, machines;
};

Counts read_meta(ByteReader &r, Model &m) {
    const uint32_t method = r.u32(), multiclass = r.u32(), bias = r.u32(), kernel = r.u32();
    require_format(method <= KMX_METHOD_ONE_CLASS && multiclass <= KMX_MULTICLASS_OVR && bias <= 1 &&
                       kernel <= KMX_KERNEL_PRECOMPUTED,
                   r, "bad method, multiclass, bias or kernel code");
    require_format(kernel != KMX_KERNEL_PRECOMPUTED || method == KMX_METHOD_SVM || method == KMX_METHOD_SVR ||
                       method == KMX_METHOD_ONE_CLASS,
                   r, "a precomputed kernel with a method other than svm, svr or one_class");
    m.method = kmx_method(method);
    m.multiclass = kmx_multiclass(multiclass);
    m.has_bias = bias == 1;
    m.kernel.type = kmx_kernel_type(kernel);
    m.kernel.gamma = finite(r, "gamma is not finite");
    m.kernel.coef0 = finite(r, "coef0 is not finite");
    const uint32_t degree = r.u32();
    require_format(m.kernel.gamma > 0 && degree >= 1 && degree <= 100, r, "bad gamma or degree");
    m.kernel.degree = int(degree);
    const uint64_t d = r.u64();
    Counts c;
    c.classes = r.u64();
    c.points = r.u64();
    const uint64_t sv = r.u64();
    c.machines = r.u64();
    require_format(d >= 1 && d <= (uint64_t(1) << 31), r, "bad column count");
    require_format((m.svr()         ? c.classes == 0
                    : m.one_class() ? c.classes == 2
                                    : c.classes >= 2 || (m.krr() && c.classes == 0)) &&
                       c.classes <= (uint64_t(1) << 31),
                   r, "bad class count");
    require_format(sv <= c.points, r, "more support vectors than points");
    m.d = int64_t(d);
    m.support_vectors = int64_t(sv);
    m.stats.objective = finite(r, "objective is not finite");
    m.stats.kkt_violation = finite(r, "kkt violation is not finite");
    m.stats.iterations = int64_t(r.u64());
    m.stats.seconds = finite(r, "seconds is not finite");
    m.C = finite(r, "C is not finite");
    m.lambda = finite(r, "lambda is not finite");
    require_format(m.C >= 0 && m.lambda >= 0, r, "negative C or lambda");
    if (m.one_class()) {
        require_format(m.C > 0 && m.C <= 1, r, "one-class nu outside (0, 1]");
        m.nu = m.C;
        m.C = 0;
    }
    require_format(c.machines == uint64_t(machines_for(int64_t(c.classes), m.multiclass)), r,
                   "the machine count does not match the classes");
    r.finish();
    return c;
}

void read_classes(ByteReader &r, uint64_t count, Model &m) {
    require_format(count <= r.remaining() / 8, r, "fewer labels than classes");
    m.classes.resize(size_t(count));
    for (double &label : m.classes) label = finite(r, "a label is not finite");
    for (size_t c = 1; c < m.classes.size(); ++c)
        require_format(m.classes[c - 1] < m.classes[c], r, "labels are not strictly increasing");
    if (m.one_class()) require_format(m.classes[0] == -1 && m.classes[1] == 1, r, "one-class labels are not -1, +1");
    r.finish();
}

void read_points(ByteReader &r, uint64_t count, Model &m) {
    const uint64_t columns = uint64_t(m.point_columns());
    require_format(count <= r.remaining() / 8 / columns, r, "fewer values than points x columns");
    m.n_points = int64_t(count);
    m.points.resize(size_t(count) * size_t(columns));
    for (double &v : m.points) v = finite(r, "a point value is not finite");
    if (m.kernel.type == KMX_KERNEL_PRECOMPUTED)
        for (double serial : m.points)
            require_format(serial >= 1 && serial <= double(m.d - 1) && serial == std::floor(serial), r,
                           "a support vector's serial number is not a column of the kernel matrix");
    r.finish();
}

void read_sparse_points(ByteReader &r, uint64_t count, Model &m) {
    require_format(m.kernel.on_features(), r, "sparse points with a precomputed kernel");
    const uint64_t stored = r.count(12, "sparse point values");
    require_format(count < r.remaining() / 8, r, "fewer row offsets than points");
    m.n_points = int64_t(count);
    m.point_row_ptr.resize(size_t(count) + 1);
    for (int64_t &offset : m.point_row_ptr) {
        offset = int64_t(r.u64());
        require_format(offset >= 0 && uint64_t(offset) <= stored, r, "a point's row offset is out of range");
    }
    require_format(m.point_row_ptr[0] == 0 && uint64_t(m.point_row_ptr.back()) == stored, r,
                   "the row offsets do not span the stored values");
    require_format(stored <= r.remaining() / 12, r, "fewer stored values than the row offsets say");
    m.point_col.resize(size_t(stored));
    m.points.resize(size_t(stored));
    for (uint64_t p = 0; p < count; ++p) {
        require_format(m.point_row_ptr[p] <= m.point_row_ptr[p + 1], r, "the row offsets decrease");
        for (int64_t e = m.point_row_ptr[p]; e < m.point_row_ptr[p + 1]; ++e) {
            const uint32_t column = r.u32();
            require_format(
                column < uint64_t(m.d) && (e == m.point_row_ptr[p] || int64_t(column) > m.point_col[size_t(e) - 1]), r,
                "a point's columns are not increasing and below d");
            m.point_col[size_t(e)] = int32_t(column);
            m.points[size_t(e)] = finite(r, "a point value is not finite");
        }
    }
    r.finish();
}

void read_kernel_partition(ByteReader &r, const Model &m, KernelPartition &p) {
    const uint64_t k = r.count(8 * 3, "clusters");
    if (k == 0) return;
    require_format(k <= uint64_t(INT32_MAX), r, "too many clusters");
    p.k = int64_t(k);
    const uint64_t samples = r.count(12, "sample points");
    for (uint64_t i = 0; i < samples; ++i) {
        p.sample_rows.push_back(index_below(r, uint64_t(m.n_points), "a sample point index is out of range"));
        const int32_t cluster = r.i32();
        require_format(cluster >= 0 && uint64_t(cluster) < k, r, "a sample point's cluster is out of range");
        p.sample_cluster.push_back(cluster);
    }
    for (uint64_t c = 0; c < k; ++c) p.cluster_self.push_back(finite(r, "cluster_self is not finite"));
    std::vector<int64_t> members(size_t(k), 0);
    for (int32_t cluster : p.sample_cluster) ++members[size_t(cluster)];
    for (uint64_t c = 0; c < k; ++c) {
        p.cluster_size.push_back(int64_t(r.u64()));
        require_format(p.cluster_size.back() == members[c] && members[c] > 0, r,
                       "a cluster size does not match its sample points");
    }
}

void read_partition(ByteReader &r, const Model &m, size_t coefficients, MachinePartition &local) {
    read_kernel_partition(r, m, local.partition);
    const uint64_t ranges = r.count(8, "cluster ranges");
    if (ranges == 0) {
        require_format(local.partition.k == 0, r, "a kernel partition without cluster ranges");
        return;
    }
    const uint64_t expected = local.partition.k > 0 ? uint64_t(local.partition.k) : uint64_t(m.routes);
    require_format(ranges == expected, r, "the cluster ranges do not match the partition or the routes");
    for (uint64_t c = 0; c <= ranges; ++c) {
        local.cluster_begin.push_back(int64_t(index_below(r, coefficients + 1, "bad cluster range")));
        require_format(c > 0 ? local.cluster_begin[c] >= local.cluster_begin[c - 1] : local.cluster_begin[0] == 0, r,
                       "cluster ranges are not increasing");
    }
    require_format(uint64_t(local.cluster_begin.back()) == coefficients, r,
                   "cluster ranges do not cover the coefficients");
    const uint64_t biases = r.count(8, "cluster biases");
    require_format(biases == 0 || biases == ranges, r, "the cluster biases do not match the clusters");
    for (uint64_t c = 0; c < biases; ++c) local.cluster_bias.push_back(finite(r, "a cluster bias is not finite"));
}

void read_machine(ByteReader &r, const Model &m, BinaryMachine &machine) {
    const int32_t classes = int32_t(m.classes.size());
    machine.positive = r.i32();
    machine.negative = r.i32();
    if (m.regression())
        require_format(machine.positive == 0 && machine.negative == kRestOfClasses, r,
                       "a regression machine with classes");
    const bool rest = machine.negative == kRestOfClasses && m.multiclass == KMX_MULTICLASS_OVR && classes > 2;
    require_format(
        m.regression() ||
            (machine.positive >= 0 && machine.positive < classes &&
             (rest || (machine.negative >= 0 && machine.negative < classes && machine.negative != machine.positive))),
        r, "a machine's classes are out of range");
    machine.bias = finite(r, "a bias is not finite");
    const uint64_t coefficients = r.count(16, "coefficients");
    for (uint64_t j = 0; j < coefficients; ++j) {
        machine.sv.push_back(index_below(r, uint64_t(m.support_vectors), "a support vector index is out of range"));
        machine.coef.push_back(finite(r, "a coefficient is not finite"));
    }
    read_partition(r, m, size_t(coefficients), machine.local);
}

void read_routes(ByteReader &r, Model &m) {
    const uint64_t routes = r.count(8 * uint64_t(m.d), "routes");
    require_format(routes <= uint64_t(INT32_MAX), r, "too many routes");
    m.routes = int64_t(routes);
    m.route_centers.resize(size_t(routes) * size_t(m.d));
    for (double &v : m.route_centers) v = finite(r, "a route center value is not finite");
    r.finish();
}

void read_machines(ByteReader &r, uint64_t count, Model &m) {
    constexpr uint64_t kSmallestMachineBytes = 32;
    require_format(count <= r.remaining() / kSmallestMachineBytes, r, "fewer machines than the classes need");
    m.machines.resize(size_t(count));
    for (BinaryMachine &machine : m.machines) read_machine(r, m, machine);
    for (const BinaryMachine &machine : m.machines)
        require_format(machine.local.empty() == m.machines[0].local.empty(), r,
                       "some machines have a partition and some do not");
    r.finish();
}

void read_class_names(ByteReader &r, uint32_t version, Model &m) {
    const uint64_t count = r.count(4, "names");
    require_format((count == m.classes.size() && count > 0) || (count == 0 && version >= kSigmoidsFormatVersion), r,
                   "the class names do not match the classes");
    if (count == 0) return r.finish();
    std::vector<std::string> names;
    for (uint64_t c = 0; c < count; ++c) {
        const uint64_t length = r.u32();
        require_format(length <= r.remaining(), r, "a class name is truncated");
        names.emplace_back(reinterpret_cast<const char *>(r.bytes(size_t(length))), size_t(length));
    }
    r.finish();
    const char *problem = class_names_problem(names, m.classes.size());
    if (problem) require_format(false, r, problem);
    m.class_names = std::move(names);
}

void read_sigmoids(ByteReader &r, Model &m) {
    const uint64_t count = r.count(16, "sigmoids");
    require_format(count == m.machines.size() && count > 0, r, "the sigmoids do not match the machines");
    require_format(m.method <= KMX_METHOD_BKA, r, "sigmoids in a model of a method without probability estimates");
    m.sigmoids.resize(size_t(count));
    for (PlattSigmoid &sigmoid : m.sigmoids) {
        sigmoid.A = finite(r, "a sigmoid's A is not finite");
        sigmoid.B = finite(r, "a sigmoid's B is not finite");
    }
    r.finish();
}

}  // namespace

std::vector<unsigned char> model_to_bytes(const Model &model) {
    if (model.kernel.type == KMX_KERNEL_CALLBACK)
        fail(KMX_E_UNSUPPORTED,
             "a model trained with a callback kernel cannot be saved: its kernel is a function in this process");
    const uint32_t version = format_version(model);
    const uint32_t sections = section_count(version);
    ByteWriter w;
    w.raw(kModelMagic, sizeof kModelMagic);
    w.u32(version);
    w.u32(sections);
    const size_t table = w.size();
    for (uint32_t s = 0; s < sections * kTableEntryBytes / 4; ++s) w.u32(0);
    w.u32(0);  // header checksum
    for (uint32_t id = 1; id <= sections; ++id) {
        const size_t begin = w.size();
        write_section(w, model, id);
        const size_t entry = table + (id - 1) * kTableEntryBytes;
        w.patch_u32(entry, id);
        w.patch_u32(entry + 4, crc32(w.bytes().data() + begin, w.size() - begin));
        w.patch_u64(entry + 8, begin);
        w.patch_u64(entry + 16, w.size() - begin);
    }
    const size_t table_end = table + sections * kTableEntryBytes;
    w.patch_u32(table_end, crc32(w.bytes().data(), table_end));
    return std::move(w.bytes());
}

Model model_from_bytes(const unsigned char *bytes, size_t len, const char *name) {
    Section sections[kSectionCount + 1];
    const uint32_t version = read_sections(bytes, len, name, sections);
    Model m;
    ByteReader meta(sections[kMeta].data, sections[kMeta].len, "model meta section");
    const Counts counts = read_meta(meta, m);
    ByteReader classes(sections[kClasses].data, sections[kClasses].len, "model classes section");
    read_classes(classes, counts.classes, m);
    ByteReader points(sections[kPoints].data, sections[kPoints].len, "model points section");
    if (sections[kSparsePoints].len > 0) {
        require_format(sections[kPoints].len == 0, points, "points both dense and sparse");
        ByteReader sparse(sections[kSparsePoints].data, sections[kSparsePoints].len, "model sparse points section");
        read_sparse_points(sparse, counts.points, m);
    } else {
        read_points(points, counts.points, m);
    }
    ByteReader routes(sections[kRoutes].data, sections[kRoutes].len, "model routes section");
    read_routes(routes, m);
    ByteReader machines(sections[kMachines].data, sections[kMachines].len, "model machines section");
    read_machines(machines, counts.machines, m);
    require_format(m.kernel.on_features() || !m.early(), machines, "a precomputed kernel's machine has clusters");
    if (sections[kNames].data) {
        ByteReader names(sections[kNames].data, sections[kNames].len, "model class names section");
        read_class_names(names, version, m);
    }
    if (sections[kSigmoids].len > 0) {
        ByteReader sigmoids(sections[kSigmoids].data, sections[kSigmoids].len, "model sigmoids section");
        read_sigmoids(sigmoids, m);
    }
    return m;
}

void save_model_file(const Model &model, const char *path) {
    const std::vector<unsigned char> bytes = model_to_bytes(model);
    write_binary_file_atomically(path, bytes.data(), bytes.size());
}

Model load_model_file(const char *path) {
    const std::vector<unsigned char> bytes = read_binary_file(path);
    return model_from_bytes(bytes.data(), bytes.size(), path);
}

}  // namespace kmx
