#!/usr/bin/env bash
# Installs (or, with --uninstall, removes) the release build of tunnelvision under DESTDIR/PREFIX:
# the executable, the report's fonts, the man page and the completions for bash, zsh and fish,
# each where its reader looks. The man page and the completions are written by the executable
# from its own command definitions.
#   scripts/install.sh [--uninstall] DESTDIR PREFIX
set -euo pipefail
cd "$(dirname "$0")/.."
uninstall=false
if [ "${1:-}" = "--uninstall" ]; then uninstall=true; shift; fi
destdir="${1:-}"
prefix="${2:-/usr/local}"
root="$destdir$prefix"
# zsh looks in vendor-completions for what the distribution ships, site-functions for the rest.
if [ "$prefix" = "/usr" ]; then zsh_dir="share/zsh/vendor-completions"; else zsh_dir="share/zsh/site-functions"; fi
files=(
  "bin/tunnelvision"
  "share/man/man1/tunnelvision.1.gz"
  "share/bash-completion/completions/tunnelvision"
  "$zsh_dir/_tunnelvision"
  "share/fish/vendor_completions.d/tunnelvision.fish"
)
if $uninstall; then
  for f in "${files[@]}"; do rm -f "$root/$f"; done
  rm -rf "$root/share/tunnelvision"
  echo "Removed tunnelvision from $root."
  exit 0
fi
binary=.build/release/tunnelvision
[ -x "$binary" ] || { echo "No release build at $binary: run 'make release' first." >&2; exit 1; }
install -d "$root/bin" "$root/share/tunnelvision/Fonts" "$root/share/man/man1" \
  "$root/share/bash-completion/completions" "$root/$zsh_dir" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/tunnelvision"
install -m 0644 Fonts/*.ttf Fonts/LICENSE-DejaVu.txt "$root/share/tunnelvision/Fonts/"
"$binary" --generate-manual | gzip -9n > "$root/share/man/man1/tunnelvision.1.gz"
chmod 0644 "$root/share/man/man1/tunnelvision.1.gz"
"$binary" --generate-completion-script bash > "$root/share/bash-completion/completions/tunnelvision"
"$binary" --generate-completion-script zsh > "$root/$zsh_dir/_tunnelvision"
"$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/tunnelvision.fish"
chmod 0644 "$root/share/bash-completion/completions/tunnelvision" "$root/$zsh_dir/_tunnelvision" \
  "$root/share/fish/vendor_completions.d/tunnelvision.fish"
echo "Installed tunnelvision into $root."
# Capturing needs CAP_NET_RAW and CAP_NET_ADMIN. They are not given to the installed binary:
# it is one executable that also reads and writes files, so every local user could capture.
echo "To capture without root: sudo setcap cap_net_raw,cap_net_admin+ep $prefix/bin/tunnelvision (docs/install.md says what that grants)."
