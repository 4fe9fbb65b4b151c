/* kmx.i — the one SWIG interface over include/kmx/kmx.h, shared by every
 * language (after SimpleITK's Wrapping/Common). Each language's typemaps,
 * error mapping and idiomatic helpers live in bindings/<language>/kmx_lang.i,
 * found through -I: this file stays language-neutral and wraps the C header
 * itself, so there is no second hand-written C layer to keep in step. */
%module kmx

/* The bindings wrap the experimental zone of kmx.h too (the machine probe);
 * each language's README says which of its calls may change. */
#define KMX_EXPERIMENTAL_API
%{
#define KMX_EXPERIMENTAL_API
#include "kmx/kmx.h"
%}

%include <stdint.i>

/* Typemaps and the status -> exception mapping of the language being built. */
%include "kmx_lang.i"

/* The communicator (kmx_context_set_communicator): each language passes its
 * own object (its sum, maximum and broadcast over the ranks) through
 * trampolines in its kmx_lang.i, which fill the C table; the table's struct
 * itself is not wrapped. */
%ignore kmx_communicator;
/* The kernel as a C callback (kmx_kernel_create_callback): each language
 * passes its own function through a trampoline in its kmx_lang.i (Python a
 * callable, Java an io.kmx.KernelFunction, C# a Kmx.KernelFunction delegate,
 * R a function run on R's thread alone); the C function type itself is not
 * wrapped. */
%ignore kmx_kernel_fn;

/* kmx_solver_cross_validate's task output: Java's and C#'s callers know the
 * task from the labels they gave, so those bindings drop it; R's returns it
 * (bindings/r/kmx_lang.i) to report accuracy or mean squared error. */
#ifndef SWIGR
%typemap(in, numinputs=0) kmx_task *out_task (kmx_task ignored) "$1 = &ignored;";
#endif

/* SWIG's stdint.i calls int64_t "long long" where LP64 C says "long", and
 * casts a const array argument to its own spelling in the call: the call
 * is written out so that row_ptr reaches C as the header declares it. */
%feature("action") kmx_dataset_create_csr
    "result = kmx_dataset_create_csr(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9);"

%include "kmx/kmx_version.h"
%include "kmx/kmx.h"
