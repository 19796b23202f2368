"""AWS setup mistakes end in one line naming the fix: exit 1, no traceback, never "unexpected error"."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import SALES_DB, gluecat


def _project(root: Path, catalog: str) -> Path:
    (root / "sales").mkdir(parents=True)
    (root / "catalog.yaml").write_text(catalog)
    (root / "sales" / "database.yaml").write_text(SALES_DB)
    return root


def _one_error_line(args: list[str]) -> str:
    result = gluecat(*args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "unexpected error" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on: bound once, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A server that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


@pytest.fixture
def empty_aws_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No shared config or credentials files, whatever the machine has."""
    empty = tmp_path / "empty-aws-file"
    empty.write_text("")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(empty))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(empty))
    return empty


@pytest.mark.parametrize("command", ["plan", "import"])
def test_connection_refused(tmp_path: Path, closed_port: int, command: str) -> None:
    endpoint = f"http://127.0.0.1:{closed_port}"
    root = _project(tmp_path / "p", f"region: us-east-1\nendpoint_url: {endpoint}\n")
    line = _one_error_line([command, str(root)])
    assert endpoint in line
    assert "check endpoint_url" in line


def test_unknown_host(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", "region: us-east-1\nendpoint_url: http://glue.invalid:4566\n")
    line = _one_error_line(["plan", str(root)])
    assert "glue.invalid" in line
    assert "check endpoint_url" in line


def test_endpoint_that_never_answers(tmp_path: Path, silent_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLUECAT_READ_TIMEOUT", "0.5")
    root = _project(tmp_path / "p", f"region: us-east-1\nendpoint_url: http://127.0.0.1:{silent_port}\n")
    line = _one_error_line(["plan", str(root)])
    assert "Read timeout" in line
    assert "did not answer" in line


def test_unknown_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LocalGlue) -> None:
    config = tmp_path / "aws-config"
    config.write_text("[profile team]\nregion = us-east-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    root = _project(tmp_path / "p", f"region: us-east-1\nendpoint_url: {server.endpoint_url}\nprofile: tema\n")
    line = _one_error_line(["plan", str(root)])
    assert "'tema' not found" in line
    assert "fix profile: in catalog.yaml" in line


def test_unknown_profile_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LocalGlue, empty_aws_files: Path
) -> None:
    monkeypatch.setenv("AWS_PROFILE", "tema")
    root = _project(tmp_path / "p", f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    line = _one_error_line(["plan", str(root)])
    assert "'tema' not found: fix AWS_PROFILE" in line


def test_no_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LocalGlue, empty_aws_files: Path
) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    root = _project(tmp_path / "p", f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    line = _one_error_line(["plan", str(root)])
    assert "no AWS credentials" in line
    assert "AWS_ACCESS_KEY_ID" in line
    assert "aws configure" in line


@pytest.mark.parametrize(
    ("region", "expected"),
    [
        ("eu-wst-1", "did you mean 'eu-west-1'?"),
        ("eu-central1", "did you mean 'eu-central-1'?"),
        ("eu west 1", "did you mean 'eu-west-1'?"),
        ("Frankfurt", "is not a region name"),
    ],
)
def test_bad_region(tmp_path: Path, server: LocalGlue, region: str, expected: str) -> None:
    root = _project(tmp_path / "p", f"region: {region}\nendpoint_url: {server.endpoint_url}\n")
    line = _one_error_line(["plan", str(root)])
    assert expected in line
    assert "set region: in catalog.yaml or AWS_REGION" in line


def test_no_region(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LocalGlue, empty_aws_files: Path) -> None:
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.delenv("AWS_REGION", raising=False)
    root = _project(tmp_path / "p", f"endpoint_url: {server.endpoint_url}\n")
    line = _one_error_line(["plan", str(root)])
    assert "no AWS region: set region: in catalog.yaml or AWS_REGION" in line


def test_aws_region_is_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: LocalGlue, empty_aws_files: Path
) -> None:
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    root = _project(tmp_path / "p", f"endpoint_url: {server.endpoint_url}\n")
    result = gluecat("plan", str(root))
    assert result.exit_code == 0, result.output
    assert "sales" in result.stdout
