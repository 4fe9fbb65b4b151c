"""Shared fixtures: the bundled data sets (examples/data, tests/data) as numpy arrays. meson's test
sets KMX_EXAMPLE_DATA, KMX_TEST_DATA, the scenario's paths and PYTHONPATH (the package in the build dir)."""
import os

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file

SOURCE_ROOT = os.environ.get("KMX_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE_DATA = os.environ.get("KMX_EXAMPLE_DATA", os.path.join(SOURCE_ROOT, "examples", "data"))
TEST_DATA = os.environ.get("KMX_TEST_DATA", os.path.join(SOURCE_ROOT, "tests", "data"))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: heavier checks, run by the 'slow' suite")


def load(folder, name, n_features=None):
    x, y = load_svmlight_file(os.path.join(folder, name), n_features=n_features)
    return np.ascontiguousarray(x.toarray()), y


@pytest.fixture(scope="session")
def letter_bin():
    """Letter, two classes (±1), 16 features: (x_train, y_train, x_test, y_test)."""
    x, y = load(EXAMPLE_DATA, "letter_bin.train.libsvm", 16)
    xt, yt = load(EXAMPLE_DATA, "letter_bin.test.libsvm", 16)
    return x, y, xt, yt


@pytest.fixture(scope="session")
def letter_mc():
    """Letter, 26 classes (1..26): the first 3000 training rows and 1000 test rows."""
    x, y = load(EXAMPLE_DATA, "letter_mc.train.libsvm", 16)
    xt, yt = load(EXAMPLE_DATA, "letter_mc.test.libsvm", 16)
    return x[:3000], y[:3000], xt[:1000], yt[:1000]


@pytest.fixture(scope="session")
def boston():
    """A regression problem (106 rows, 13 features), targets standardised."""
    x, y = load(TEST_DATA, "boston_reg.test.libsvm", 13)
    return x, (y - y.mean()) / y.std()
