"""The commit-subject check of CONTRIBUTING.md (tools/scripts/commit_msg.py): a subject of 72
characters passes, one of 73 is refused, comments and blank lines before it are skipped, and
the length counts characters, not bytes."""
import subprocess
import sys

from tools.scripts import commit_msg
from tools.toc import ROOT

SCRIPT = ROOT / "tools" / "scripts" / "commit_msg.py"


def hook(tmp_path, message):
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True)


def test_a_subject_of_72_characters_passes_and_73_is_refused(tmp_path):
    assert hook(tmp_path, "a" * 72 + "\n\nA body line may be as long as it likes. " * 5).returncode == 0
    refused = hook(tmp_path, "a" * 73 + "\n")
    assert refused.returncode == 1
    assert "73 characters, more than 72" in refused.stderr


def test_the_subject_is_the_first_line_that_is_not_a_comment():
    assert commit_msg.subject("# a comment\n\nThe subject\nbody") == "The subject"
    assert commit_msg.too_long("# " + "x" * 100 + "\nShort subject\n") is None


def test_characters_not_bytes():
    subject = "k̂ · × " * 10   # 70 characters, far more bytes
    assert len(subject.rstrip()) <= 72 < len(subject.encode())
    assert commit_msg.too_long(subject) is None
