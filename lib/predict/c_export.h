// c_export.h — a predictor blob as C source (`kmx export --c`): a header
// that defines the blob as an 8-byte aligned `static const unsigned char`
// array, so <kmx/kmx_infer.h> can use it in place from flash.
#pragma once
#include <cstddef>
#include <string>

namespace kmx {

// The text of a C header defining
//     #define NAME_LEN LEN     (NAME upper-cased)
//     static const unsigned char name[LEN] (aligned to 8) = {0x4b, ...};
// guarded by NAME_H (upper-cased). `name` must be a C identifier
// (KMX_E_INVALID_ARGUMENT otherwise); the blob must not be empty.
std::string predictor_blob_c_header(const unsigned char *blob, size_t len, const std::string &name);

}  // namespace kmx
