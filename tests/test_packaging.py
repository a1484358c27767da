"""The built wheel: it puts nothing in site-packages but ``sixtui``, and it holds every
package of the source tree, so that a subpackage left out of pyproject.toml's list fails
here rather than on an operator's machine."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The source folders and the packages they install as (see pyproject.toml's package-dir).
SOURCES = {"sixtui": "sixtui", "server": "sixtui/server"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel built from a copy of the project, with the build backend installed here
    (no download): the copy keeps the build's leftovers out of the working tree."""
    copy = tmp_path_factory.mktemp("project")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    leftovers = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for folder in SOURCES:
        shutil.copytree(ROOT / folder, copy / folder, ignore=leftovers)
    built = copy / "dist"
    build = ["wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(built)]
    subprocess.run(
        [sys.executable, "-m", "pip", *build, "-q", str(copy)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (path,) = built.glob("sixtui-*.whl")
    with zipfile.ZipFile(path) as opened:
        yield opened


def test_the_wheel_installs_nothing_but_sixtui(wheel) -> None:
    top = {name.split("/", 1)[0] for name in wheel.namelist()}
    dist_info = {name for name in top if name.endswith(".dist-info")}
    assert len(dist_info) == 1 and dist_info.pop().startswith("sixtui-")
    assert top - {name for name in top if name.endswith(".dist-info")} == {"sixtui"}


def source_packages() -> list[str]:
    """Where each package of the source tree lands in the wheel: every folder with an
    ``__init__.py`` under the source folders."""
    return sorted(
        str(PurePosixPath(installed, init.relative_to(ROOT / folder).as_posix()))
        for folder, installed in SOURCES.items()
        for init in (ROOT / folder).rglob("__init__.py")
    )


def test_every_package_of_the_source_tree_is_in_the_wheel(wheel) -> None:
    packages = source_packages()
    assert "sixtui/server/__init__.py" in packages and "sixtui/tui/widgets/__init__.py" in packages
    missing = [package for package in packages if package not in wheel.namelist()]
    assert not missing, f"not in the wheel (add them to pyproject.toml's packages): {missing}"


def test_the_interface_files_are_in_the_wheel(wheel) -> None:
    assert {"sixtui/tui/sixtui.tcss", "sixtui/tui/rules.md"} <= set(wheel.namelist())
