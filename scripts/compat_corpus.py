"""Write tests/data/compat/: earlier files that cardrules promises to keep validating.

    python scripts/compat_corpus.py      (from the repository root, with its git history)

The files are committed: CI has a clean clone, and the tests must not depend on git
history.  Three kinds, identical contents kept once:

- ``rulesets/COMMIT/``: earlier versions of the bundled rulesets (up to three distinct
  ones each besides today's), each beside the versions of the same commit of the
  rulesets it extends.  ``extends: NAME`` finds a bundled ruleset by name, so the test
  reads each folder as the bundled folder, and nothing in a file is rewritten.
- ``good/COMMIT/``: every earlier version of the tests' good examples (tests/data/good),
  those since removed included, beside the files of the same commit they extend by path; they extend a bundled ruleset
  by name as an author's file does, so today's.
- ``docs/``: every whole ruleset file the README, the tutorial and the language reference
  have shown, at any commit, but those they show `validate` refusing (the tutorial's
  typo.yaml); these too extend today's bundled rulesets.

Run it again after a release to add that release's files; what it wrote before stays.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "compat"
VERSIONS = 3  # distinct earlier versions of each bundled ruleset, spread over its history
DOCS = ("README.md", "docs/tutorial.md", "docs/ruleset-language.md")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def show(commit: str, path: str) -> str | None:
    try:
        return git("show", f"{commit}:{path}")
    except subprocess.CalledProcessError:
        return None


def commits(path: str) -> list[str]:
    """The commits that changed ``path``, oldest first."""
    return git("log", "--reverse", "--format=%H", "--", path).split()


def extends(text: str) -> str | None:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    parent = data.get("extends") if isinstance(data, dict) else None
    return parent if isinstance(parent, str) else None


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(text)


def with_parents(commit: str, repo_path: str, folder: Path, name: str, by_name: bool) -> None:
    """The file at ``repo_path`` as of ``commit`` into ``folder/name``, with the files of
    the same commit it extends: by a relative path, at that path beside it; by a bundled
    name (``by_name``), as ``NAME.yaml`` in the folder."""
    text = show(commit, repo_path)
    if text is None:
        return
    write(folder / name, text)
    parent = extends(text)
    if parent is None:
        return
    if "/" in parent or parent.endswith((".yaml", ".yml")):
        target = PurePosixPath(repo_path).parent / parent
        with_parents(commit, str(PurePosixPath(*_normal(target.parts))), folder,
                     str(PurePosixPath(*_normal((PurePosixPath(name).parent / parent).parts))), by_name)
    elif by_name:
        with_parents(commit, f"rulesets/{parent}.yaml", folder, f"{parent}.yaml", by_name)


def _normal(parts: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for part in parts:
        if part == "..":
            out.pop()
        elif part != ".":
            out.append(part)
    return out


def spread(items: list[str], most: int) -> list[str]:
    """At most ``most`` of ``items``, the first and the last among them."""
    if len(items) <= most:
        return items
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def earlier_versions(path: str, most: int) -> list[str]:
    """The commits of the distinct earlier versions of ``path`` (not today's content, if
    it is still there)."""
    seen = {(ROOT / path).read_text()} if (ROOT / path).exists() else set()
    found = []
    for commit in commits(path):
        text = show(commit, path)
        if text is not None and text not in seen:
            seen.add(text)
            found.append(commit)
    return spread(found, most)


def bundled_rulesets() -> None:
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        for commit in earlier_versions(f"rulesets/{path.name}", VERSIONS):
            with_parents(commit, f"rulesets/{path.name}", OUT / "rulesets" / commit[:10], path.name, True)


def good_examples() -> None:
    names = sorted({line for line in git("log", "--format=", "--name-only", "--", "tests/data/good").split()
                    if line.endswith(".yaml")})
    for name in names:  # (a file since removed validated too: its versions until then)
        for commit in earlier_versions(name, 99):
            with_parents(commit, name, OUT / "good" / commit[:10], PurePosixPath(name).name, False)


def refused_in_docs(text: str, block_end: int, name: str) -> bool:
    """Whether the console block after a YAML block shows `validate` refusing ``name``."""
    console = re.compile(r"```console\n(.*?)```", re.S).search(text, block_end)
    following = re.compile(r"```yaml\n").search(text, block_end)
    if console is None or (following is not None and following.start() < console.start()):
        return False
    return re.search(rf"^{re.escape(name)}:\d+:\d+: ", console.group(1), re.M) is not None


def docs_examples() -> None:
    for doc in DOCS:
        for commit in commits(doc):
            text = show(commit, doc)
            for match in re.finditer(r"```yaml\n(.*?)```", text or "", re.S):
                body = match.group(1)
                if not re.search(r"^(extends|family):", body, re.M):
                    continue  # a fragment of a ruleset, not a file
                first = body.splitlines()[0]
                name = first[2:].strip() if re.fullmatch(r"# [\w.-]+\.yaml", first) else ""
                if name and refused_in_docs(text or "", match.end(), name):
                    continue
                digest = hashlib.sha256(body.encode()).hexdigest()[:10]
                stem = PurePosixPath(doc).stem.lower()
                write(OUT / "docs" / f"{stem}-{PurePosixPath(name).stem or 'example'}-{digest}.yaml", body)


def main() -> int:
    if not (ROOT / ".git").exists():
        print("compat_corpus: run it in a clone with its history", file=sys.stderr)
        return 1
    bundled_rulesets()
    good_examples()
    docs_examples()
    files = sorted(OUT.rglob("*.yaml"))
    size = sum(p.stat().st_size for p in files)
    print(f"{len(files)} files, {size / 1024:.0f} kB under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
