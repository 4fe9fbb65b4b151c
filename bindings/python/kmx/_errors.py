"""kmx.Error and one subclass per kmx_status, made from the C library's own list of statuses
(kmx_status_name), and registered with the extension, which raises them for failed calls."""
from . import capi


class Error(Exception):
    """A failed kmx call: `status` names the kmx_status (e.g. "KMX_E_INVALID_ARGUMENT"), `code`
    is its number, the message is the C library's (kmx_last_error)."""

    status = "KMX_E_UNKNOWN"
    code = -1


# Built-in exceptions a status is also an instance of, so that code catching
# ValueError, MemoryError or OSError (scikit-learn's checks among it) sees kmx's
# failures too.
_ALSO = {
    "KMX_E_INVALID_ARGUMENT": ValueError,
    "KMX_E_OUT_OF_MEMORY": MemoryError,
    "KMX_E_IO": OSError,
    "KMX_E_FORMAT": ValueError,
    "KMX_E_UNSUPPORTED": NotImplementedError,
    "KMX_E_NUMERICAL": ArithmeticError,
}


def _class_name(status):
    """KMX_E_OUT_OF_MEMORY -> OutOfMemoryError, KMX_E_IO -> IoError (not the built-in IOError's name)."""
    return "".join(word.capitalize() for word in status[len("KMX_E_"):].split("_")) + "Error"


def _make_classes():
    classes = {}
    code = 1
    while capi.kmx_status_name(code) != "KMX_E_UNKNOWN":
        status = capi.kmx_status_name(code)
        bases = (Error, _ALSO[status]) if status in _ALSO else (Error,)
        doc = f"kmx_status {status} ({code})."
        classes[code] = type(_class_name(status), bases, {"status": status, "code": code, "__doc__": doc,
                                                         "__module__": "kmx"})
        code += 1
    return classes


ERRORS = _make_classes()
capi.kmx_py_set_error_classes(ERRORS)
globals().update({cls.__name__: cls for cls in ERRORS.values()})
__all__ = ["Error"] + [cls.__name__ for cls in ERRORS.values()]
