// params.h — the table of every kmx_param (name, allowed range, kind,
// default, owners, the methods that use it, a description) and the parser of
// the "key=value key=value" form.
#pragma once
#include <cstddef>

#include "kmx/kmx.h"

namespace kmx {

// Which objects take a parameter (a bit each; a parameter may belong to several).
enum ParamOwner : unsigned {
    kOwnerContext = KMX_PARAM_OWNER_CONTEXT,
    kOwnerKernel = KMX_PARAM_OWNER_KERNEL,
    kOwnerKMeans = KMX_PARAM_OWNER_KMEANS,
    kOwnerSolver = KMX_PARAM_OWNER_SOLVER,
    kOwnerApprox = KMX_PARAM_OWNER_APPROX,
    kOwnerPredictor = KMX_PARAM_OWNER_PREDICTOR,
};

// The one description of a parameter: every fact about it that the C API
// (bounds, defaults, names, value names), the string parser, the CLI's help
// and the bindings use comes from here.
struct ParamSpec {
    kmx_param id;
    const char *name;
    double lower;
    double upper;
    int flags;  // KMX_BOUND_*
    double default_value;
    const char *const *enum_names;  // for KMX_BOUND_ENUM: names by value (nullptr-ended)
    unsigned owners;                // ParamOwner bits
    unsigned methods;               // solver parameters: the kmx_method values that use it (bit 1 << method)
    const char *description;        // one line: what it is and what its special values mean
};

// The table, in kmx_param order.
int param_count();
const ParamSpec &param_at(int index);

// The spec of `param`, or nullptr if there is no such parameter.
const ParamSpec *find_param(kmx_param param);
const ParamSpec *find_param(const char *name, size_t name_len);

// Throws KMX_E_INVALID_ARGUMENT (naming the parameter and its range) unless
// `value` is allowed.
void check_param(const ParamSpec &spec, double value);
// "(0, inf)", "{rbf, laplacian, ...}", "whole numbers in [1, 1024]".
void describe_range(const ParamSpec &spec, char *out, size_t out_len);
// The name of an enum parameter's value ("rbf" for KMX_PARAM_KERNEL, 0), or
// nullptr when the parameter is not an enum or the value is not one of it.
const char *param_value_name(const ParamSpec &spec, double value);

// The parameters one kind of object (a context, a kernel, k-means, ...) accepts.
struct ParamGroup {
    unsigned owner;    // one ParamOwner bit
    const char *name;  // "context", "kernel", ... for messages

    bool has(kmx_param param) const;
    // Throws unless `param` belongs to the group (and, for check, `value` is allowed).
    void require_member(kmx_param param) const;
    void check(kmx_param param, double value) const;
};

constexpr ParamGroup kContextParams{kOwnerContext, "context"};
constexpr ParamGroup kKernelParams{kOwnerKernel, "kernel"};
constexpr ParamGroup kKMeansParams{kOwnerKMeans, "k-means"};
constexpr ParamGroup kSolverParams{kOwnerSolver, "solver"};
constexpr ParamGroup kApproxParams{kOwnerApprox, "kernel approximation"};
constexpr ParamGroup kPredictorParams{kOwnerPredictor, "compact predictor"};

// Parsed "key=value" text: every pair checked before anything is applied.
struct ParamAssignment {
    const ParamSpec *spec;
    double value;
};
class ParamList {
public:
    static constexpr int kMax = 64;
    // Parses and checks `text` (NULL or blank is an empty list). Keys must
    // belong to `group`; otherwise the error names what the group accepts.
    ParamList(const char *text, const ParamGroup &group);
    int size() const { return count_; }
    const ParamAssignment &operator[](int i) const { return items_[i]; }
    // The value given for `param`, or `fallback`.
    double get(kmx_param param, double fallback) const;
    // The value given for `param`, or the parameter table's default.
    double get_or_default(kmx_param param) const;

private:
    ParamAssignment items_[kMax];
    int count_ = 0;
};

}  // namespace kmx
