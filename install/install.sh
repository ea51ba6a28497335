#!/bin/sh
# askhook installer: build the release binary, put it on the PATH, register it in Claude Code's
# user settings, then show the result. POSIX sh (runs under dash), idempotent, never prompts.
#
#   install/install.sh            build + install ~/.cargo/bin/askhook, `askhook install`, `askhook status`
#   install/install.sh --plugin   build + install, link bin/askhook for the Claude Code plugin route
#                                 (hooks/hooks.json runs ${CLAUDE_PLUGIN_ROOT}/bin/askhook); no settings edit
#   install/install.sh --help
#
# Needs only a Rust toolchain (https://rustup.rs); no network beyond cargo's registry.
# Extra arguments after `--` go to `askhook install` (e.g. `-- --scope project`).

set -eu

say() { printf 'askhook-install: %s\n' "$*"; }
die() { printf 'askhook-install: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}

plugin=0
while [ $# -gt 0 ]; do
    case "$1" in
        --plugin) plugin=1 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

# The repository root: the folder holding this script's parent.
script_dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || die "cannot find the script's folder"
repo=$(CDPATH= cd -- "$script_dir/.." && pwd)
[ -f "$repo/Cargo.toml" ] || die "$repo/Cargo.toml not found; run this script from a clone of askhook"

command -v cargo >/dev/null 2>&1 || die "cargo not found on PATH. Install Rust from https://rustup.rs, open a new shell (or run '. \"\$HOME/.cargo/env\"'), then run this script again."

# Where cargo install puts binaries: $CARGO_INSTALL_ROOT, else $CARGO_HOME, else ~/.cargo.
install_root=${CARGO_INSTALL_ROOT:-${CARGO_HOME:-"$HOME/.cargo"}}
bin_dir="$install_root/bin"
bin="$bin_dir/askhook"

say "building and installing askhook into $bin_dir (cargo install --path . --locked)"
# From the repository root, so cargo reads its .cargo/config.toml (build settings for speed).
(cd "$repo" && cargo install --path . --locked) || die "cargo install failed (see the output above); nothing was registered"
[ -x "$bin" ] || die "cargo reported success but $bin is not there; check cargo's install root (CARGO_INSTALL_ROOT, CARGO_HOME, ~/.cargo/config.toml [install] root)"

case ":$PATH:" in
    *":$bin_dir:"*) on_path=1 ;;
    *) on_path=0 ;;
esac

if [ "$plugin" -eq 1 ]; then
    mkdir -p "$repo/bin" || die "cannot create $repo/bin"
    # A symlink: `--plugin-dir` sees the live binary, and Claude Code follows it when it copies
    # the plugin into its cache on `/plugin install`.
    ln -sf "$bin" "$repo/bin/askhook" || die "cannot link $repo/bin/askhook"
    say "linked $repo/bin/askhook -> $bin"
    "$bin" status || die "'askhook status' found a problem (its lines above say what to fix)"
    say "next: in Claude Code run '/plugin marketplace add $repo' then '/plugin install askhook@askhook'"
    say "      (or start 'claude --plugin-dir $repo' to try it for one session)."
    say "      Use either the plugin or 'askhook install', not both: both would run the hook twice."
    if "$bin" status --json 2>/dev/null | grep -q '"command": ".*askhook"'; then
        say "warning: askhook is also registered in a settings file (see 'askhook status' above);"
        say "         run 'askhook uninstall' (with its --scope) if you switch to the plugin."
    fi
else
    "$bin" install "$@" || die "'askhook install' failed (its message above says why); your settings file was not changed"
    "$bin" status || die "'askhook status' found a problem (its lines above say what to fix)"
fi

if [ "$on_path" -eq 0 ]; then
    say "note: $bin_dir is not on your PATH, so 'askhook' alone will not be found in this shell."
    say "      Add this line to your shell profile (~/.profile, ~/.bashrc or ~/.zshrc):"
    say "        export PATH=\"$bin_dir:\$PATH\""
    say "      (the hook itself is registered by absolute path and works either way)."
fi
say "done. Try 'askhook doctor' for a self-test, and 'askhook demo' for a tour."
