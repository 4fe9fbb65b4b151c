// params.h — the table of every kmx_param: name, allowed range, kind, and
// the parser of the "key=value key=value" form. Objects that take parameters
// (context, kernel, k-means, later solvers) say which ones they accept.
#pragma once
#include <cstddef>

#include "kmx/kmx.h"

namespace kmx {

struct ParamSpec {
    kmx_param id;
    const char *name;
    double lower;
    double upper;
    int flags;  // KMX_BOUND_*
    double default_value;
    const char *const *enum_names;  // for KMX_BOUND_ENUM: names by value (nullptr-ended)
};

// The spec of `param`, or nullptr if there is no such parameter.
const ParamSpec *find_param(kmx_param param);
const ParamSpec *find_param(const char *name, size_t name_len);

// Throws KMX_E_INVALID_ARGUMENT (naming the parameter and its range) unless
// `value` is allowed.
void check_param(const ParamSpec &spec, double value);
// "(0, inf)", "{rbf, laplacian, ...}", "whole numbers in [1, 1024]".
void describe_range(const ParamSpec &spec, char *out, size_t out_len);

// Parsed "key=value" text: every pair checked before anything is applied.
struct ParamAssignment {
    const ParamSpec *spec;
    double value;
};
class ParamList {
public:
    static constexpr int kMax = 64;
    // Parses and checks `text` (NULL or blank is an empty list). Keys must be
    // among `allowed` (count entries); otherwise the error names what the
    // object (`owner`) accepts.
    ParamList(const char *text, const kmx_param *allowed, int allowed_count, const char *owner);
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

// Throws unless `param` is among `allowed`, naming `owner`.
void require_param_in(kmx_param param, const kmx_param *allowed, int allowed_count, const char *owner);

// The parameters one kind of object (a context, a kernel, k-means) accepts.
struct ParamGroup {
    const kmx_param *params;
    int count;
    const char *owner;  // "context", "kernel", ... for messages

    // Throws unless `param` belongs to the group (and, for check, `value` is allowed).
    void require_member(kmx_param param) const { require_param_in(param, params, count, owner); }
    void check(kmx_param param, double value) const;
    ParamList parse(const char *text) const { return ParamList(text, params, count, owner); }
};

template <size_t N>
constexpr ParamGroup make_param_group(const kmx_param (&params)[N], const char *owner) {
    return ParamGroup{params, int(N), owner};
}

}  // namespace kmx
