#!/usr/bin/env python3
"""Commit subjects of at most 72 characters: a git ``commit-msg`` hook, and a check of a range.

As a hook it reads the message file git passes and refuses the commit when its subject (the
first line that is not a comment) is longer than :data:`LIMIT` characters. Install it once per
clone (worktrees share it)::

    hooks="$(git rev-parse --git-common-dir)/hooks" && mkdir -p "$hooks"
    cp tools/scripts/commit_msg.py "$hooks/commit-msg"

As a check, ``python3 tools/scripts/commit_msg.py --since main`` lists the commits of
``main..HEAD`` whose subject is too long, and exits 1 if there is one. History is never
rewritten: run it on a branch before it is merged.
"""
import subprocess
import sys

LIMIT = 72


def subject(message):
    """The subject of a commit message: its first line that is not empty or a comment."""
    for line in message.splitlines():
        if line.strip() and not line.startswith("#"):
            return line.rstrip()
    return ""


def too_long(text):
    """The reason ``text``'s subject is refused, or None."""
    line = subject(text)
    if len(line) > LIMIT:
        return (f"the commit subject has {len(line)} characters, more than {LIMIT}; "
                f"put the rest in the body:\n  {line}")
    return None


def main(argv):
    if len(argv) == 2 and argv[0] == "--since":
        log = subprocess.run(["git", "log", "--format=%h %s", f"{argv[1]}..HEAD"],
                             capture_output=True, text=True, check=True).stdout
        bad = [line for line in log.splitlines() if len(line.split(" ", 1)[1]) > LIMIT]
        for line in bad:
            print(f"{len(line.split(' ', 1)[1])} characters: {line}")
        return 1 if bad else 0
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        reason = too_long(file.read())
    if reason:
        print(reason, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
