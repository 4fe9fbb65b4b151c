"""kmx: scalable kernel machines (DC-SVM, FALKON, MEKA, Nystrom, compact predictors) from Python.

scikit-learn estimators: SVC, SVR, OneClassSVM, KernelRidge, Falkon, MEKA, NystromTron, Predictor.
The library's objects: Context, Dataset, Kernel, Solver, Model, Approximation, kmeans, ...
(kmx.capi is the SWIG layer: one function per C function of kmx.h.) Failed calls raise kmx.Error
subclasses, one per kmx_status (kmx.InvalidArgumentError, ...), with the C library's message."""
from . import capi
from ._core import (Approximation, Context, Dataset, Kernel, Model, Solver, kernel_block, kmeans, kmeans_assign,
                    params_string, version)
from ._core import Predictor as CompactPredictor
from ._errors import *  # noqa: F401,F403 (Error and its subclasses)
from ._errors import ERRORS, Error
from ._estimators import SVC, SVR, MEKA, Falkon, KernelRidge, NystromTron, OneClassSVM, Predictor

__version__ = version()
__all__ = ["SVC", "SVR", "OneClassSVM", "KernelRidge", "Falkon", "MEKA", "NystromTron", "Predictor",
           "Context", "Dataset", "Kernel", "Solver", "Model", "Approximation", "CompactPredictor", "kmeans",
           "kmeans_assign", "kernel_block", "params_string", "version", "Error"] + \
          [cls.__name__ for cls in ERRORS.values()]
