#!/usr/bin/env bash
# A screenshot of a DP_PROFILE trace in Chromium's trace viewer (the
# catapult viewer behind chrome://tracing), taken by headless Chromium:
#   bash scripts/trace-screenshot.sh TRACE.json OUT.png CATAPULT [WIDTH HEIGHT [X Y]]
# CATAPULT is a checkout of https://github.com/catapult-project/catapult
# (its tracing/bin/trace2html makes a page that holds the viewer and the
# trace). Needs Debian's chromium and python3-websocket (installed here
# when missing). X Y: a point to click (an event's details then show).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,8p' "$0"; exit 2; }
trace=$(realpath "$1") out=$2 catapult=$3
shift 3
if ! command -v chromium >/dev/null || ! /usr/bin/python3 -c 'import websocket' 2>/dev/null; then
  apt-get install -y -q chromium python3-websocket >/dev/null
fi
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT
/usr/bin/python3 "$catapult/tracing/bin/trace2html" "$trace" --output "$page" >/dev/null
/usr/bin/python3 "$(dirname "$0")/trace_screenshot.py" "$page" "$out" "$@"
echo "trace-screenshot: $out"
