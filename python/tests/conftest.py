"""Shared fixtures: where the built fp-opt lives (for cross-checks against
the command-line tool). scripts/test.d/python.sh sets FPOPT_BUILD_DIR."""

import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def fp_opt() -> str:
    build = os.environ.get("FPOPT_BUILD_DIR")
    if not build:
        build = pathlib.Path(__file__).resolve().parents[2] / "build"
    tool = pathlib.Path(build) / "bin" / "fp-opt"
    if not tool.exists():
        pytest.fail(f"fp-opt not found at {tool}; set FPOPT_BUILD_DIR")
    return str(tool)
