#!/usr/bin/env bash
# End-to-end check of `slide serve` and its web page in real headless Chromium.
#
# Installs what is missing (Debian's chromium, and Node.js if there is none: needs root, as on CI), installs
# playwright-core in tests-e2e/ (it never downloads a browser: the system /usr/bin/chromium is used), builds the
# release binary (in $CARGO_TARGET_DIR if set), starts `slide serve --no-large-builds` on a free port with an empty
# table cache and a fresh history database, runs tests-e2e/e2e.mjs against it (which restarts the server on that
# database) and stops the server. The screenshots go to $SCREENSHOT (default docs/screenshot.png) and
# $SCREENSHOT_PRACTICE (default docs/practice.png).
#
#   scripts/e2e.sh        # exit status: that of the browser test (0 = passed)
set -euo pipefail
cd "$(dirname "$0")/.."

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "e2e: missing ${missing[*]}; install them (apt-get install -y ${missing[*]}) or run as root" >&2
        exit 1
    fi
    echo "e2e: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

(cd tests-e2e && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })

cargo build --release --quiet --bin slide
bin="${CARGO_TARGET_DIR:-target}/release/slide"

work=$(mktemp -d)
export SLIDE_CACHE_DIR="${SLIDE_CACHE_DIR:-$work/cache}"
# Never the 5x5 pattern databases (minutes and 2.5 GB): the page then says they are off. The solve history goes to a
# database in the temporary directory (a server without the option keeps none); the test restarts the server on it.
db=()
if "$bin" serve --help 2>/dev/null | grep -q -- '--db'; then
    db=(--db "$work/history.sqlite3")
    export SLIDE_DB="$work/history.sqlite3"
fi
"$bin" serve --port 0 --no-large-builds "${db[@]}" >"$work/stdout" 2>"$work/stderr" &
server=$!
export SLIDE_BIN="$bin" SLIDE_PID="$server"
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The first line of standard output is "slide: serving on http://127.0.0.1:PORT/ (Ctrl-C to stop)".
url=""
for _ in $(seq 300); do
    url=$(head -n1 "$work/stdout" | grep -o 'http://[^ ]*' || true)
    [ -n "$url" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "e2e: slide serve exited early:" >&2
        cat "$work/stdout" "$work/stderr" >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "e2e: slide serve printed no URL within 30 s" >&2
    exit 1
fi
echo "e2e: testing $url in $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"

status=0
SLIDE_URL="$url" SCREENSHOT="${SCREENSHOT:-docs/screenshot.png}" SCREENSHOT_PRACTICE="${SCREENSHOT_PRACTICE:-docs/practice.png}" \
    node tests-e2e/e2e.mjs || status=$?
if [ "$status" -ne 0 ] && [ -s "$work/stderr" ]; then
    echo "e2e: slide serve said:" >&2
    tail -n 20 "$work/stderr" >&2
fi
exit "$status"
