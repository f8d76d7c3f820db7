"""tools/freshness.py: the one record of what each built output was made from."""
from tools.freshness import Stamps, files_hash, tree_files
from tools.toc import ROOT


def test_an_output_is_current_only_while_its_key_holds_and_its_files_exist(tmp_path):
    stamps, output, other = Stamps(tmp_path / "stamps.json"), tmp_path / "deck.html", tmp_path / "b"
    assert not stamps.current(output, "k1"), "nothing recorded"
    output.write_text("built")
    stamps.record(output, "k1")
    assert stamps.current(output, "k1")
    assert not stamps.current(output, "k2"), "another key: its inputs changed"
    assert not stamps.current(output, "k1", other), "a file the step writes is missing"
    stamps.record(other, "k9")
    assert stamps.current(output, "k1"), "recording one output keeps the others"
    stamps.forget(output)
    assert not stamps.current(output, "k1") and not stamps.current(other, "k9")
    other.write_text("x")
    assert stamps.current(other, "k9")
    output.unlink()
    stamps.record(output, "k1")
    assert not stamps.current(output, "k1"), "the output itself is gone"


def test_the_key_follows_content_names_and_strings(tmp_path):
    folder = ROOT / "_build" / "freshness-test"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        a, b = folder / "a.txt", folder / "b.txt"
        a.write_text("one")
        b.write_text("one")
        assert files_hash([a]) == files_hash([a]) != files_hash([b]), "the name counts"
        assert files_hash([a], "flag") != files_hash([a])
        before = files_hash(tree_files(["_build/freshness-test"]))
        a.write_text("two")
        assert files_hash(tree_files(["_build/freshness-test"])) != before
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
