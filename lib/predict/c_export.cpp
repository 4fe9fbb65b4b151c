// c_export.cpp — a predictor blob as a C header (see c_export.h).
#include "c_export.h"

#include <cctype>
#include <cstdio>

#include "core/error.h"

namespace kmx {

namespace {

bool is_c_identifier(const std::string &name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (char ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
    return true;
}

std::string upper(std::string text) {
    for (char &ch : text) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return text;
}

// The blob's bytes, 16 a line, each line indented by four spaces.
std::string byte_lines(const unsigned char *blob, size_t len) {
    std::string text;
    text.reserve(len * 6 + len / 16 * 6);
    char hex[8];
    for (size_t i = 0; i < len; ++i) {
        if (i % 16 == 0) text += "    ";
        std::snprintf(hex, sizeof hex, "0x%02x,", blob[i]);
        text += hex;
        text += (i % 16 == 15 || i + 1 == len) ? "\n" : " ";
    }
    return text;
}

// Portable spelling of "aligned to 8": GCC/Clang attribute, MSVC declspec,
// C11/C++11 alignas; otherwise nothing (kmx_infer_open then reports
// KMX_INFER_E_ALIGNMENT if the compiler placed the array badly).
const char *alignment_macros() {
    return "#ifndef KMX_BLOB_ALIGNED\n"
           "#if defined(__GNUC__) || defined(__clang__)\n"
           "#define KMX_BLOB_ALIGNED(declaration) declaration __attribute__((aligned(8)))\n"
           "#elif defined(_MSC_VER)\n"
           "#define KMX_BLOB_ALIGNED(declaration) __declspec(align(8)) declaration\n"
           "#elif defined(__cplusplus) && __cplusplus >= 201103L\n"
           "#define KMX_BLOB_ALIGNED(declaration) alignas(8) declaration\n"
           "#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n"
           "#define KMX_BLOB_ALIGNED(declaration) _Alignas(8) declaration\n"
           "#else\n"
           "#define KMX_BLOB_ALIGNED(declaration) declaration\n"
           "#endif\n"
           "#endif\n";
}

}  // namespace

std::string predictor_blob_c_header(const unsigned char *blob, size_t len, const std::string &name) {
    if (!is_c_identifier(name)) fail(KMX_E_INVALID_ARGUMENT, "export --c: \"%s\" is not a C identifier", name.c_str());
    if (!blob || len == 0) fail(KMX_E_INVALID_ARGUMENT, "export --c: empty predictor blob");
    const std::string guard = upper(name) + "_H";
    const std::string length = std::to_string(len);
    std::string text = "/* " + name + ": a kmx predictor blob (" + length +
                       " bytes), written by kmx export --c.\n"
                       " * Open it with kmx_infer_open(&p, " +
                       name + ", " + upper(name) +
                       "_LEN, arena, arena_len)\n"
                       " * from <kmx/kmx_infer.h>; it is used in place. */\n";
    text += "#ifndef " + guard + "\n#define " + guard + "\n\n";
    text += alignment_macros();
    text += "\n#define " + upper(name) + "_LEN " + length + "\n";
    text += "KMX_BLOB_ALIGNED(static const unsigned char " + name + "[" + length + "]) = {\n";
    text += byte_lines(blob, len);
    text += "};\n\n#endif /* " + guard + " */\n";
    return text;
}

}  // namespace kmx
