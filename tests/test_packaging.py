"""The package installs whole: every folder of the package is listed in pyproject.toml
(a normal, non-editable install takes only the listed packages), with its data files."""

from __future__ import annotations

import tomllib

from helpers import REPO


def test_every_package_folder_is_installed():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = {"cardrules" + "".join("." + p for p in init.parent.relative_to(REPO).parts)
               for init in REPO.glob("**/__init__.py")
               if not {".venv", "tests", "benchmarks", "build"} & set(init.relative_to(REPO).parts)}
    assert folders == listed
    data = config["package-data"]
    for schema in REPO.glob("interpreter/families/*/schema.json"):
        package = "cardrules." + ".".join(schema.parent.relative_to(REPO).parts)
        assert "schema.json" in data.get(package, []), package
