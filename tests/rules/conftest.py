"""Pytest set-up for the rules tests.

When a Hypothesis test fails, Hypothesis's pytest plugin imports its patch writer,
which imports ``libcst`` if that is installed; on some machines that import emits a
DeprecationWarning, and with warnings as errors the failure report would become an
INTERNALERROR that hides the real failure.  Importing the writer here once, with
warnings silenced, keeps failure reports intact.  It changes nothing when tests pass.
"""

from __future__ import annotations

import contextlib
import importlib
import warnings

# Without libcst the plugin skips patch writing itself, so ImportError is fine.
with warnings.catch_warnings(), contextlib.suppress(ImportError):
    warnings.simplefilter("ignore")
    importlib.import_module("hypothesis.extra._patching")
