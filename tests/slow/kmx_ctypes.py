"""A minimal ctypes view of libkmx for the slow tests: the C ABI called from
Python exactly as a C program would, results compared with numpy/sklearn."""
import ctypes
import numpy as np

c_double_p = ctypes.POINTER(ctypes.c_double)
c_int32_p = ctypes.POINTER(ctypes.c_int32)
c_void_pp = ctypes.POINTER(ctypes.c_void_p)


class Kmx:
    def __init__(self, path):
        lib = self.lib = ctypes.CDLL(path)
        lib.kmx_last_error.restype = ctypes.c_char_p
        lib.kmx_context_create.argtypes = [c_void_pp]
        lib.kmx_context_set_params.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        lib.kmx_context_free.argtypes = [ctypes.c_void_p]
        lib.kmx_dataset_create.argtypes = [c_void_pp, c_double_p, ctypes.c_int64, ctypes.c_int64, c_double_p,
                                           ctypes.c_int]
        lib.kmx_dataset_load.argtypes = [c_void_pp, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        lib.kmx_dataset_free.argtypes = [ctypes.c_void_p]
        lib.kmx_dataset_rows.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
        lib.kmx_dataset_cols.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
        lib.kmx_dataset_get_rows.argtypes = [c_double_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                                             ctypes.c_int64]
        lib.kmx_kernel_create_from_string.argtypes = [c_void_pp, ctypes.c_char_p]
        lib.kmx_kernel_free.argtypes = [ctypes.c_void_p]
        lib.kmx_kernel_block.argtypes = [c_double_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, c_double_p,
                                         ctypes.c_int64, c_double_p, ctypes.c_int64, ctypes.c_int64]
        lib.kmx_kmeans.argtypes = [c_double_p, ctypes.c_int64, c_int32_p, ctypes.c_int64, c_double_p,
                                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_char_p]

    def check(self, status):
        if status != 0:
            raise RuntimeError(f"kmx status {status}: {self.lib.kmx_last_error().decode()}")

    def handle(self, create, *args):
        out = ctypes.c_void_p()
        self.check(create(ctypes.byref(out), *args))
        return out

    def context(self, params):
        ctx = self.handle(self.lib.kmx_context_create)
        self.check(self.lib.kmx_context_set_params(ctx, params.encode()))
        return ctx

    def load(self, ctx, path):
        ds = self.handle(self.lib.kmx_dataset_load, ctx, path.encode(), 0)
        n, d = ctypes.c_int64(), ctypes.c_int64()
        self.check(self.lib.kmx_dataset_rows(ctypes.byref(n), ds))
        self.check(self.lib.kmx_dataset_cols(ctypes.byref(d), ds))
        x = np.empty((n.value, d.value))
        self.check(self.lib.kmx_dataset_get_rows(ptr(x), x.size, ds, 0, n.value))
        return ds, x

    def kernel_block(self, ctx, params, a, b):
        kernel = self.handle(self.lib.kmx_kernel_create_from_string, params.encode())
        out = np.empty((a.shape[0], b.shape[0]))
        try:
            self.check(self.lib.kmx_kernel_block(ptr(out), out.size, ctx, kernel, ptr(a), a.shape[0], ptr(b),
                                                 b.shape[0], a.shape[1]))
        finally:
            self.lib.kmx_kernel_free(kernel)
        return out

    def kmeans(self, ctx, ds, n, d, k, params):
        centers = np.empty((k, d))
        assignment = np.empty(n, dtype=np.int32)
        objective = ctypes.c_double()
        self.check(self.lib.kmx_kmeans(ptr(centers), centers.size, assignment.ctypes.data_as(c_int32_p), n,
                                       ctypes.byref(objective), ctx, ds, k, params.encode()))
        return centers, assignment, objective.value


def ptr(array):
    assert array.dtype == np.float64 and array.flags.c_contiguous
    return array.ctypes.data_as(c_double_p)
