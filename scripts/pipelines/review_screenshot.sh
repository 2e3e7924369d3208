#!/usr/bin/env bash
# A review report of a few German multi-genre documents, rendered by headless Chromium into a
# screenshot (docs/review.png): the check that `spacy-deid review` reads well in a real browser.
# Usage: bash scripts/pipelines/review_screenshot.sh PIPELINE PNG
# Installs Chromium from the Debian packages where it is missing (as root, or through sudo).
set -euo pipefail
pipeline="$1"
png="$2"
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
for name in discharge_1 nursing_1 message_1; do
  # the corpus's inline tags removed: the text as a hospital system would hold it
  sed -E 's#</?[A-Z_]+>##g' "corpus/synthetic_clinical/de/$name.txt" > "$work/in/$name.txt"
done
spacy-deid run --pipeline "$pipeline" --quiet "$work/in" "$work/out"
spacy-deid review "$work/out" "$work/report" --sample 3
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1400 \
  --screenshot="$png" "file://$work/report/index.html"
echo "screenshot -> $png"
