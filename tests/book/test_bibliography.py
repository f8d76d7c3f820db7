"""The bibliography file is strict BibTeX: biber and linters reject what BibTeX skips quietly."""
import re

from pybtex.database import parse_file

from tools import toc

BIB = toc.CHAPTERS_DIR / "references.bib"


def entries_and_gaps(text):
    """The entries of a .bib text (balanced braces) and the text left between them."""
    entries, gaps, position = [], [], 0
    for start in (match.start() for match in re.finditer(r"^@", text, flags=re.M)):
        if start < position:
            continue
        gaps.append(text[position:start])
        depth, opening = 0, text.index("{", start)
        for end in range(opening, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        entries.append(text[start:end + 1])
        position = end + 1
    gaps.append(text[position:])
    return entries, gaps


def test_nothing_but_whitespace_lies_between_entries():
    _, gaps = entries_and_gaps(BIB.read_text(encoding="utf-8"))
    stray = [gap.strip() for gap in gaps if gap.strip()]
    assert stray == [], f"text outside any entry: {stray}"


def test_the_check_finds_a_stray_brace():
    _, gaps = entries_and_gaps("@misc{a,\n  title = {A}\n}\n\n}\n\n@misc{b,\n  title = {B}\n}\n")
    assert [gap.strip() for gap in gaps if gap.strip()] == ["}"]


def test_proceedings_papers_name_their_proceedings_as_a_booktitle():
    database = parse_file(str(BIB))
    for key, entry in database.entries.items():
        journal = entry.fields.get("journal", "")
        assert not (entry.type == "article" and "Proceedings" in journal), (
            f"{key}: a paper in proceedings is @inproceedings with booktitle, not @article")
