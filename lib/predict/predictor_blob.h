// predictor_blob.h — a CompactPredictor as one self-contained byte blob, the
// form `kmx export` writes and the inference subset (<kmx/kmx_infer.h>) runs
// in place, from flash if need be.
//
// Layout, format versions 1 to 4 (byte offsets in lib/infer/blob_layout.h,
// the one definition the C runtime and this writer share). Everything
// little-endian. The writer emits the oldest version that holds the
// predictor: 1 for float64 and float32 storage (what runtimes before
// version 2 read), 2 for int16 and int8, 3 for those with sigmoids
// (probability estimates), 4 for int4 (with sigmoids or not), so a
// predictor keeps its bytes when a newer version comes.
//
//   offset  type     field
//   0       u8[8]    magic "KMXPRED\0"
//   8       u32      format version (1 to 4); readers refuse newer versions
//   12      u32      CRC-32 (IEEE) of bytes [16, total_bytes)
//   16      u64      total_bytes: the blob's exact length
//   24      u32      header bytes (144; 152 with sigmoids)
//   28      u32      flags: bit 0 float32 reals; version 2: bit 1 int16 landmarks,
//                    bit 2 int8 landmarks (one of them, with bit 0); versions 3
//                    and 4: bit 3 sigmoids; version 4: bit 4 int4 landmarks
//                    (always, with bit 0); others 0
//   32      u32      kernel (kmx_kernel_type)      36  i32  degree
//   40      f64      gamma (resolved)              48  f64  coef0
//   56      u32      task (0 classification, 1 regression)
//   60      u32      multiclass (0 ovo, 1 ovr)     64  u32  triangle estimate (0 lower, 1 upper, 2 midpoint)
//   68      u32      reserved (0)
//   72      u64 ×5   d, outputs, classes, top, leaves
//   112     u64 ×4   offsets of: classes f64[classes]; top centers real[top·d];
//                    top_leaf_begin u64[top+1]; the leaf table u64[leaves·(9 or 10)]
//   144     version 3 with bit 3 only: u64 offset of the sigmoids f64[2·outputs],
//            (A_k, B_k) of output k (finite; a classifier's)
//   144/152 arrays, each at an offset that is a multiple of 8, zero padding between
//            (the sigmoids last, after the leaves' arrays).
//
//   Leaf table record (9 × u64, versions 2 and 3: 10, version 4: 11): m, p_tri, p_prod, then the
//   offsets of center real[d], landmarks real[m·d] (int16/int8 codes q when
//   quantized), triangle distances real[p_tri·m], product pairs i32[2·p_prod],
//   β real[(m+p_tri+p_prod)·outputs], bias real[outputs]; version 2 adds the
//   leaf's landmark scale s (f64 bits: a float in [FLT_MIN, 1e30] when
//   quantized, else 0), u = center + s·q; version 4 adds the offset of the
//   leaf's codebook real[16 d] (u_jk = codebook[16k + q_jk], the codes two per
//   byte, the even one low). "real" is f64, or f32 when the
//   float32 flag is set (class labels stay f64). Writing rounds every real
//   array to float and every quantized landmark to its code
//   (predictor_storage.h), as CompactPredictor's contract says.
//
// Reading checks all of it — magic, version, lengths, CRC, alignment,
// offsets and counts against the blob, kernel/task/multiclass codes, and
// check_compact_predictor's rules (routing ranges, product pairs, finite
// values, increasing classes, one output for regression) — and fails with
// KMX_E_FORMAT naming what is wrong. kmx_infer_open applies the same rules. A blob's first byte must be 8-byte aligned to be used in place
// (the reader here copies, so it does not care).
#pragma once
#include <cstddef>
#include <vector>

#include "compact_predictor.h"

namespace kmx {

// Fails with KMX_E_INVALID_ARGUMENT when the predictor's arrays disagree
// with its counts (the same rules the reader applies).
std::vector<unsigned char> write_predictor_blob(const CompactPredictor &predictor);

// Fails with KMX_E_FORMAT on anything malformed.
CompactPredictor read_predictor_blob(const void *blob, size_t len);

}  // namespace kmx
