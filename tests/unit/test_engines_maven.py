"""The engines tests find Trino's tarball where Maven puts it: Maven is asked for its repository (or
told one), never assumed at $HOME/.m2, which is not where Java's Maven looks when HOME points
elsewhere (Java reads the account's home from the password database)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.engines import trino_server

FAKE_MVN = """\
#!/bin/sh
echo "$@" >> "{log}"
case "$*" in
  *help:evaluate*) printf '%s' "{repository}" ;;
  *dependency:get*)
    for arg in "$@"; do
      case "$arg" in -Dmaven.repo.local=*) repo="${{arg#-Dmaven.repo.local=}}" ;; esac
    done
    mkdir -p "$repo/io/trino/trino-server/{version}"
    echo tarball > "$repo/io/trino/trino-server/{version}/trino-server-{version}.tar.gz" ;;
esac
"""


@pytest.fixture
def maven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A `mvn` on PATH whose repository is in a folder of its own, and HOME somewhere else."""
    repository, log, bin_dir = tmp_path / "maven-repo", tmp_path / "mvn.log", tmp_path / "bin"
    bin_dir.mkdir()
    mvn = bin_dir / "mvn"
    mvn.write_text(FAKE_MVN.format(log=log, repository=repository, version=trino_server.VERSION))
    mvn.chmod(mvn.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    monkeypatch.delenv("MAVEN_REPOSITORY", raising=False)
    return repository, log


def test_the_tarball_is_fetched_into_and_found_in_the_repository_maven_names(maven: tuple[Path, Path]) -> None:
    repository, log = maven

    tarball = trino_server.trino_tarball()

    assert tarball == repository / "io/trino/trino-server" / trino_server.VERSION / tarball.name
    assert tarball.is_file()
    assert f"-Dmaven.repo.local={repository}" in log.read_text()
    assert not (Path(os.environ["HOME"]) / ".m2").exists()


def test_a_repository_given_in_the_environment_is_used_without_asking(
    maven: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, log = maven
    monkeypatch.setenv("MAVEN_REPOSITORY", str(tmp_path / "given"))

    assert trino_server.maven_repository() == tmp_path / "given"
    assert not log.exists()
