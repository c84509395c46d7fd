#!/usr/bin/env bash
# make mutants: each planted bug, applied in a scratch worktree of HEAD, must fail the tests named beside it.
# (The suite's own proof that it can fail; the working tree is never touched.)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=$ROOT/.venv/bin/python
WORK=$(mktemp -d)/mutants
cd "$ROOT" && git worktree add -q --detach "$WORK" HEAD || exit 2
trap 'cd "$ROOT" && git worktree remove --force "$WORK"' EXIT
cd "$WORK"
missed=0
plant() {  # name, file, old text, new text, tests...
  local name=$1 file=$2 old=$3 new=$4; shift 4
  git checkout -q -- .
  "$PY" - "$file" "$old" "$new" <<'PYEOF' || { echo "NOT PLANTED  $name"; missed=1; return; }
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
assert old in text, f"{path}: {old!r} not found"
open(path, "w").write(text.replace(old, new, 1))
PYEOF
  if "$PY" -m pytest -q -x -p no:cacheprovider -p no:warnings "$@" > /dev/null 2>&1; then
    echo "MISSED  $name"; missed=1
  else
    echo "CAUGHT  $name"
  fi
}
plant "the kernel scaling by d_k^0.25" attention/core.py \
  "scores = scores / keys.shape[-1] ** 0.5" "scores = scores / keys.shape[-1] ** 0.25" tests/test_book_values.py
plant "a publish without compare-and-set" ui/lecture/memory_rooms.py \
  "if expected is not None and found.version != expected:" "if False:" tests/test_rooms.py
plant "a poll answer from an absent student kept" ui/lecture/memory_rooms.py \
  "or found.present.get(student, -1.0) < since:" ":" tests/test_rooms.py
plant "Deck.merged letting this window's part always win" ui/lecture/deck.py \
  "if mine_changed and not theirs_changed:" "if mine_changed:" tests/test_protocol.py
plant "a connected student no longer said present" ui/lecture/subscription.py \
  "            rooms.attend(room, student)" "            pass" tests/test_feed.py
exit $missed
