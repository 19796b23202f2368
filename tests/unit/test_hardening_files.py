"""Files gluecat writes stay inside the directory they belong to, whatever links it holds; private
files are the owner's alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gluecat.secrets.files import OutsideRoot, Writer, confined, make_directory, open_directory, write_inside


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "project", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    return root, outside


def test_a_file_link_that_leaves_the_root_is_refused_and_the_target_is_untouched(places: tuple[Path, Path]) -> None:
    root, outside = places
    (outside / "credentials").write_text("kept")
    (root / "tables").mkdir()
    (root / "tables" / "orders.yaml").symlink_to(outside / "credentials")

    with pytest.raises(OutsideRoot, match="outside"):
        write_inside(root, root / "tables" / "orders.yaml", "written")
    assert (outside / "credentials").read_text() == "kept"


def test_a_dangling_link_out_of_the_root_is_refused_and_nothing_is_made(places: tuple[Path, Path]) -> None:
    root, outside = places
    (root / "catalog.yaml").symlink_to(outside / "new-file")

    with pytest.raises(OutsideRoot):
        write_inside(root, root / "catalog.yaml", "region: x\n")
    assert not (outside / "new-file").exists()


def test_a_directory_link_out_of_the_root_is_refused(places: tuple[Path, Path]) -> None:
    root, outside = places
    (root / "sales").symlink_to(outside, target_is_directory=True)

    with pytest.raises(OutsideRoot):
        write_inside(root, root / "sales" / "tables" / "orders.yaml", "x")
    with pytest.raises(OutsideRoot):
        make_directory(root, root / "sales" / "tables")
    assert list(outside.iterdir()) == []


def test_links_that_stay_inside_the_root_are_followed(places: tuple[Path, Path]) -> None:
    root, _ = places
    (root / "shared").mkdir()
    (root / "shared" / "orders.yaml").write_text("old")
    (root / "sales" / "tables").mkdir(parents=True)
    (root / "sales" / "tables" / "orders.yaml").symlink_to(root / "shared" / "orders.yaml")

    written = write_inside(root, root / "sales" / "tables" / "orders.yaml", "new")
    assert written == (root / "shared" / "orders.yaml").resolve()
    assert (root / "sales" / "tables" / "orders.yaml").is_symlink(), "the link stays a link"
    assert (root / "shared" / "orders.yaml").read_text() == "new"


def test_a_directory_turned_into_a_link_after_the_check_is_refused(places: tuple[Path, Path]) -> None:
    """Resolved first, then walked without following links: a link swapped in between is not followed."""
    root, outside = places
    (root / "sales").mkdir()
    resolved = confined(root, root / "sales" / "tables")
    (root / "sales").rmdir()
    (root / "sales").symlink_to(outside, target_is_directory=True)

    with pytest.raises(OutsideRoot, match="became a symbolic link"):
        open_directory(root, resolved)
    assert list(outside.iterdir()) == []


def test_private_files_are_0600_in_0700_directories_whatever_the_umask(places: tuple[Path, Path]) -> None:
    root, _ = places
    previous = os.umask(0o022)
    try:
        (root / "state").mkdir(mode=0o755)
        make_directory(root, root / "state", private=True)
        written = write_inside(root / "state", root / "state" / "objects" / "ab" / "abc", b"password", private=True)
    finally:
        os.umask(previous)
    assert _mode(written) == 0o600
    assert _mode(root / "state") == 0o700, "a state directory made open earlier is closed"
    assert _mode(root / "state" / "objects") == 0o700
    assert _mode(root / "state" / "objects" / "ab") == 0o700


def test_a_file_written_over_keeps_its_mode_and_leaves_no_temporary_file(places: tuple[Path, Path]) -> None:
    root, _ = places
    target = root / "run.sh"
    target.write_text("old")
    target.chmod(0o750)

    write_inside(root, target, "new")
    assert target.read_text() == "new"
    assert _mode(target) == 0o750
    assert sorted(p.name for p in root.iterdir()) == ["run.sh"]


def test_a_relative_path_is_confined_as_its_absolute_one(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, outside = places
    monkeypatch.chdir(root.parent)
    (root / "out").symlink_to(outside, target_is_directory=True)

    with pytest.raises(OutsideRoot):
        write_inside(Path("project"), Path("project/out/x.yaml"), "x")
    write_inside(Path("project"), Path("project/in/x.yaml"), "x")
    assert (root / "in" / "x.yaml").read_text() == "x"


def test_a_name_as_long_as_the_file_system_allows_is_written(places: tuple[Path, Path]) -> None:
    root, _ = places
    longest = root / ("t" * 250 + ".yaml")
    write_inside(root, longest, "x")
    assert longest.read_text() == "x"
    assert sorted(p.name for p in root.iterdir()) == [longest.name]


def test_init_refuses_a_directory_that_links_out_and_writes_nothing(places: tuple[Path, Path]) -> None:
    from gluecat.project.starter import write_starter

    root, outside = places
    (root / ".github").symlink_to(outside, target_is_directory=True)

    with pytest.raises(OutsideRoot):
        write_starter(root)
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in root.iterdir()) == [".github"], "not even catalog.yaml is written"


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_writer_of_many_directories_writes_each_file_once_and_leaves_nothing_open(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = places
    synced: list[int] = []
    real_fsync = os.fsync

    def counted_fsync(descriptor: int) -> None:
        synced.append(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", counted_fsync)
    directories = Writer.OPEN_DIRECTORIES + 5  # more than stay open: some are synced and closed on the way
    before = _open_descriptors()

    with Writer(root) as writer:
        for round_ in range(2):  # the second round comes back to directories closed meanwhile
            for number in range(directories):
                writer.write(root / f"db{number}" / "tables" / f"t{round_}.yaml", f"{number}-{round_}\n")

    assert _open_descriptors() == before
    for number in range(directories):
        assert sorted(p.name for p in (root / f"db{number}" / "tables").iterdir()) == ["t0.yaml", "t1.yaml"]
        assert (root / f"db{number}" / "tables" / "t1.yaml").read_text() == f"{number}-1\n"
    files = 2 * directories
    # every file before its rename; each directory when the writer is done with it (here: twice at most)
    assert files + directories <= len(synced) <= files + 2 * directories


def test_a_writer_refuses_a_file_link_out_of_a_directory_it_already_wrote_in(places: tuple[Path, Path]) -> None:
    root, outside = places
    (outside / "credentials").write_text("kept")
    with Writer(root) as writer:
        writer.write(root / "tables" / "first.yaml", "x")
        (root / "tables" / "second.yaml").symlink_to(outside / "credentials")
        (root / "tables" / "inside.yaml").symlink_to(root / "tables" / "first.yaml")

        with pytest.raises(OutsideRoot):
            writer.write(root / "tables" / "second.yaml", "written")
        (root / "linked").symlink_to(outside, target_is_directory=True)
        with pytest.raises(OutsideRoot, match=r"linked/third\.yaml"):  # the file named, not only its directory
            writer.write(root / "linked" / "third.yaml", "written")
        with pytest.raises(OutsideRoot):
            writer.confined(root / "tables" / ".." / "..")
        assert writer.write(root / "tables" / "inside.yaml", "through") == (root / "tables" / "first.yaml").resolve()

    assert (outside / "credentials").read_text() == "kept"
    assert (root / "tables" / "first.yaml").read_text() == "through"
    assert (root / "tables" / "inside.yaml").is_symlink()
