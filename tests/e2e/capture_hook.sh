#!/usr/bin/env bash
# A recorder registered beside askhook (as another tool's hook would be): it writes what
# Claude Code sends, and answers nothing, so askhook alone decides.
#
#   capture_hook.sh <EventName>      (from settings.json; stdin = the hook payload)
#
# Writes into $E2E_CAPTURE_DIR, numbered in arrival order across all events of a session:
#   NN-<Event>.json   the exact stdin bytes
# Exit 0, empty stdout, always.
set -u
dir="${E2E_CAPTURE_DIR:?E2E_CAPTURE_DIR is not set}"
ev="${1:-unknown}"
mkdir -p "$dir"
tmp="$(mktemp "$dir/.in.XXXXXX")"
cat > "$tmp"
exec 9>"$dir/.lock"
flock 9
n=$(( $(cat "$dir/.seq" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$dir/.seq"
mv "$tmp" "$dir/$(printf '%02d' "$n")-$ev.json"
exit 0
