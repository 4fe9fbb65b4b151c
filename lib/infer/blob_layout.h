/* blob_layout.h — byte offsets of the predictor blob (format versions 1 to 4).
 *
 * The one definition shared by the writer/reader in C++
 * (lib/predict/predictor_blob.cpp, whose header documents the layout in
 * words) and the C inference runtime (the .c files of lib/infer). C99 and C++.
 *
 * All fields little-endian. Header at offset 0, KMX_BLOB_HEADER_BYTES long;
 * arrays follow at the offsets the header and the leaf table give, each
 * offset a multiple of 8. "real" arrays are float64, or float32 when
 * KMX_BLOB_FLAG_FLOAT32 is set.
 *
 * Version 2 adds quantized landmarks: flag KMX_BLOB_FLAG_INT16_LANDMARKS or
 * KMX_BLOB_FLAG_INT8_LANDMARKS (at most one, and only with
 * KMX_BLOB_FLAG_FLOAT32) stores each leaf's landmarks as int16/int8 codes q,
 * u = center + scale·q, and the leaf record grows a tenth word, the leaf's
 * scale (f64 bits; a float value in [FLT_MIN, KMX_BLOB_MAX_LANDMARK_SCALE]
 * when quantized, else 0). Writers emit version 1 whenever the blob fits it
 * (float64 and float32 storage), so older runtimes keep reading those; a
 * quantized blob is version 2, which they refuse as a newer version.
 *
 * Version 3 adds the Platt sigmoids of probability estimates: flag
 * KMX_BLOB_FLAG_SIGMOIDS (version 3 only) grows the header by one u64,
 * KMX_BLOB_OFF_SIGMOIDS_AT, the offset of f64[2 * outputs]: (A_k, B_k) of
 * output k's sigmoid P = 1 / (1 + exp(A_k o_k + B_k)), finite; classification
 * only. Leaf records are version 2's. Version 3 is the version of blobs with
 * sigmoids: readers refuse the flag in versions 1 and 2 and version 3 without
 * it, so predictors without them keep their bytes (and version).
 *
 * Version 4 adds 4-bit landmark codes into a codebook: flag
 * KMX_BLOB_FLAG_INT4_LANDMARKS (version 4 only, always in version 4, with
 * KMX_BLOB_FLAG_FLOAT32; the sigmoids' flag as a version-3 blob would have it)
 * stores landmark j's feature k as the code q = nibble j·d + k of the leaf's
 * landmark bytes (two per byte, the even nibble in the low half; a last odd
 * nibble's high half is 0), u_jk = codebook[16k + q], and the leaf record grows
 * an eleventh word, the offset of the leaf's codebook real[16 d] (finite). Its
 * scale word is 0.
 */
#ifndef KMX_INFER_BLOB_LAYOUT_H
#define KMX_INFER_BLOB_LAYOUT_H

#define KMX_BLOB_MAGIC "KMXPRED\0" /* 8 bytes, including the NUL */
#define KMX_BLOB_MAGIC_BYTES 8
#define KMX_BLOB_VERSION 4u /* the newest; 1 to 3 are read too */
#define KMX_BLOB_ALIGN 8u

/* Header fields: name offset (type). */
#define KMX_BLOB_OFF_MAGIC 0               /* u8[8]  "KMXPRED\0" */
#define KMX_BLOB_OFF_VERSION 8             /* u32    format version */
#define KMX_BLOB_OFF_CRC 12                /* u32    CRC-32 of bytes [16, total_bytes) */
#define KMX_BLOB_OFF_TOTAL_BYTES 16        /* u64    length of the whole blob */
#define KMX_BLOB_OFF_HEADER_BYTES 24       /* u32    KMX_BLOB_HEADER_BYTES */
#define KMX_BLOB_OFF_FLAGS 28              /* u32    KMX_BLOB_FLAG_*; others 0 */
#define KMX_BLOB_OFF_KERNEL 32             /* u32    kmx_kernel_type (0 rbf .. 4 sigmoid) */
#define KMX_BLOB_OFF_DEGREE 36             /* i32    polynomial degree */
#define KMX_BLOB_OFF_GAMMA 40              /* f64    gamma (resolved, > 0 unless linear) */
#define KMX_BLOB_OFF_COEF0 48              /* f64    coef0 */
#define KMX_BLOB_OFF_TASK 56               /* u32    0 classification, 1 regression */
#define KMX_BLOB_OFF_MULTICLASS 60         /* u32    0 one-vs-one, 1 one-vs-rest */
#define KMX_BLOB_OFF_TRIANGLE_ESTIMATE 64  /* u32    0 lower, 1 upper, 2 midpoint */
#define KMX_BLOB_OFF_RESERVED 68           /* u32    0 */
#define KMX_BLOB_OFF_D 72                  /* u64    features per row */
#define KMX_BLOB_OFF_OUTPUTS 80            /* u64    outputs per row */
#define KMX_BLOB_OFF_CLASSES 88            /* u64    class labels (0 for regression) */
#define KMX_BLOB_OFF_TOP 96                /* u64    top nodes */
#define KMX_BLOB_OFF_LEAVES 104            /* u64    leaves */
#define KMX_BLOB_OFF_CLASSES_AT 112        /* u64    offset of f64[classes] */
#define KMX_BLOB_OFF_TOP_CENTERS_AT 120    /* u64    offset of real[top * d] */
#define KMX_BLOB_OFF_TOP_LEAF_BEGIN_AT 128 /* u64    offset of u64[top + 1] */
#define KMX_BLOB_OFF_LEAF_TABLE_AT 136     /* u64    offset of u64[leaves * leaf words] */
#define KMX_BLOB_HEADER_BYTES 144
#define KMX_BLOB_OFF_SIGMOIDS_AT 144 /* u64    version 3 with KMX_BLOB_FLAG_SIGMOIDS: offset of f64[2 * outputs] */
#define KMX_BLOB_HEADER_BYTES_SIGMOIDS 152 /* the header with the sigmoids' offset */
#define KMX_BLOB_CRC_BEGIN 16              /* the CRC covers everything after the CRC field's 8-byte row */

#define KMX_BLOB_FLAG_FLOAT32 1u         /* real arrays are float32 */
#define KMX_BLOB_FLAG_INT16_LANDMARKS 2u /* version 2: landmarks int16 codes */
#define KMX_BLOB_FLAG_INT8_LANDMARKS 4u  /* version 2: landmarks int8 codes */
#define KMX_BLOB_FLAG_SIGMOIDS 8u        /* versions 3 and 4: Platt sigmoids, one per output */
#define KMX_BLOB_FLAG_INT4_LANDMARKS 16u /* version 4: landmarks 4-bit codes into a codebook per leaf */
#define KMX_BLOB_CODEBOOK_VALUES 16      /* codebook values per feature (int4) */
#define KMX_BLOB_MAX_LANDMARK_SCALE 1e30 /* largest scale of quantized landmarks */

/* One leaf-table record: KMX_BLOB_LEAF_WORDS_V1 (version 1) or _V2 u64 words, in this order. */
#define KMX_BLOB_LEAF_M 0                /* landmarks m (>= 1) */
#define KMX_BLOB_LEAF_TRIANGLE 1         /* triangle pseudo-landmarks p_tri */
#define KMX_BLOB_LEAF_PRODUCTS 2         /* product pseudo-landmarks p_prod */
#define KMX_BLOB_LEAF_CENTER_AT 3        /* offset of real[d] */
#define KMX_BLOB_LEAF_LANDMARKS_AT 4     /* offset of real[m * d] (int16/int8/int4 codes when quantized) */
#define KMX_BLOB_LEAF_TRIANGLE_DIST_AT 5 /* offset of real[p_tri * m] */
#define KMX_BLOB_LEAF_PAIRS_AT 6         /* offset of i32[2 * p_prod] */
#define KMX_BLOB_LEAF_BETA_AT 7          /* offset of real[(m + p_tri + p_prod) * outputs] */
#define KMX_BLOB_LEAF_BIAS_AT 8          /* offset of real[outputs] */
#define KMX_BLOB_LEAF_SCALE 9            /* version 2: f64 landmark scale (0 unless quantized) */
#define KMX_BLOB_LEAF_CODEBOOK_AT 10     /* version 4: offset of real[16 * d] */
#define KMX_BLOB_LEAF_WORDS_V1 9
#define KMX_BLOB_LEAF_WORDS_V2 10
#define KMX_BLOB_LEAF_WORDS_V4 11

#endif
