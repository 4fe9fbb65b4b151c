/* status.c — kmx_infer_status_name, from the same list as the enum. */
#include "kmx/kmx_infer.h"

#define KMX_INFER_STATUS_CASE_(name, value) \
    case name:                              \
        return #name;

const char *kmx_infer_status_name(kmx_infer_status status) {
    switch (status) {
        KMX_INFER_STATUS_LIST(KMX_INFER_STATUS_CASE_)
        default:
            return "KMX_INFER_E_UNKNOWN";
    }
}
