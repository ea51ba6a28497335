#!/bin/sh
# askhook installer: put the askhook binary on the PATH, register it in Claude Code's user
# settings, then show the result. POSIX sh (runs under dash), idempotent, never prompts.
#
#   install/install.sh            install the binary, `askhook install`, `askhook status`,
#                                 shell completions and man pages
#   install/install.sh --plugin   install the binary, link bin/askhook for the Claude Code plugin
#                                 route (hooks/hooks.json runs ${CLAUDE_PLUGIN_ROOT}/bin/askhook); no settings edit
#   install/install.sh --help
#
# The binary comes from a release tarball beside this script when there is one for this machine
# (askhook-<version>-<target>.tar.gz with its .sha256, as install/release.sh makes them): it is
# checked against its SHA-256 and installed into $ASKHOOK_BIN_DIR (default ~/.local/bin), no
# Rust needed. Otherwise it is built from this clone with `cargo install --path . --locked` into
# ~/.cargo/bin (a Rust toolchain is needed: https://rustup.rs).
# Extra arguments after `--` go to `askhook install` (e.g. `-- --scope project`).
# Completions go where each shell looks, when that shell's folder exists (bash-completion's
# user folder, ~/.zfunc or oh-my-zsh's completions folder, ~/.config/fish); man pages go to
# <prefix>/share/man/man1 beside <prefix>/bin/askhook.

set -eu

say() { printf 'askhook-install: %s\n' "$*"; }
die() { printf 'askhook-install: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
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

script_dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || die "cannot find the script's folder"
# The repository root, when this script is in a clone: the folder holding the script's folder.
repo=$(CDPATH= cd -- "$script_dir/.." && pwd)

# The Rust target names a release tarball may carry for this machine, best first.
host_targets() {
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) echo "x86_64-unknown-linux-gnu x86_64-unknown-linux-musl" ;;
        Linux-aarch64 | Linux-arm64) echo "aarch64-unknown-linux-gnu aarch64-unknown-linux-musl" ;;
        Darwin-x86_64) echo "x86_64-apple-darwin" ;;
        Darwin-arm64) echo "aarch64-apple-darwin" ;;
        *) echo "" ;;
    esac
}

# The release tarball beside this script for this machine, or nothing.
find_tarball() {
    for target in $(host_targets); do
        found=""
        for f in "$script_dir"/askhook-*-"$target".tar.gz; do
            [ -f "$f" ] && found=$f
        done
        if [ -n "$found" ]; then
            echo "$found"
            return 0
        fi
    done
}

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    else
        die "neither sha256sum nor shasum is installed; cannot check $1"
    fi
}

# Install the binary of release tarball $1 into $bin_dir, after checking its SHA-256.
install_tarball() {
    tarball=$1
    [ -f "$tarball.sha256" ] || die "$tarball.sha256 not found: a release tarball is installed only with its checksum"
    want=$(cut -d ' ' -f 1 <"$tarball.sha256")
    have=$(sha256_of "$tarball")
    [ -n "$want" ] && [ "$want" = "$have" ] ||
        die "$tarball does not match $tarball.sha256 (expected $want, got $have); download both again"
    say "checked the SHA-256 of $(basename -- "$tarball")"
    tmp=$(mktemp -d) || die "cannot create a temporary folder"
    trap 'rm -rf "$tmp"' EXIT
    gzip -dc "$tarball" | (cd "$tmp" && tar -xf -) || die "cannot unpack $tarball"
    name=$(basename -- "$tarball" .tar.gz)
    [ -f "$tmp/$name/askhook" ] || die "$tarball holds no $name/askhook"
    "$tmp/$name/askhook" --version >/dev/null 2>&1 || die "the askhook in $tarball does not run on this machine"
    mkdir -p "$bin_dir" || die "cannot create $bin_dir"
    # Copy beside, then rename: a hook running the old binary is never cut short.
    cp "$tmp/$name/askhook" "$bin.new" && chmod 755 "$bin.new" && mv -f "$bin.new" "$bin" ||
        die "cannot install $bin"
    say "installed $bin ($("$bin" --version))"
}

# Build and install the binary with cargo from this clone.
install_with_cargo() {
    [ -f "$repo/Cargo.toml" ] || die "no release tarball for this machine ($(uname -s) $(uname -m)) beside this script, and $repo/Cargo.toml not found to build one: run this script from a clone of askhook, or put a release tarball and its .sha256 beside it"
    command -v cargo >/dev/null 2>&1 || die "cargo not found on PATH. Install Rust from https://rustup.rs, open a new shell (or run '. \"\$HOME/.cargo/env\"'), then run this script again."
    say "building and installing askhook into $bin_dir (cargo install --path . --locked)"
    # From the repository root, so cargo reads its .cargo/config.toml (build settings for speed).
    (cd "$repo" && cargo install --path . --locked) || die "cargo install failed (see the output above); nothing was registered"
    [ -x "$bin" ] || die "cargo reported success but $bin is not there; check cargo's install root (CARGO_INSTALL_ROOT, CARGO_HOME, ~/.cargo/config.toml [install] root)"
}

tarball=$(find_tarball)
if [ -n "$tarball" ]; then
    bin_dir=${ASKHOOK_BIN_DIR:-"$HOME/.local/bin"}
    bin="$bin_dir/askhook"
    install_tarball "$tarball"
else
    # Where cargo install puts binaries: $CARGO_INSTALL_ROOT, else $CARGO_HOME, else ~/.cargo.
    install_root=${CARGO_INSTALL_ROOT:-${CARGO_HOME:-"$HOME/.cargo"}}
    bin_dir="$install_root/bin"
    bin="$bin_dir/askhook"
    install_with_cargo
fi

# Write `askhook completions SHELL` to FILE (creating its folder); never fatal.
put_completion() {
    mkdir -p "$(dirname -- "$2")" 2>/dev/null && "$bin" completions "$1" >"$2.tmp" 2>/dev/null &&
        mv -f "$2.tmp" "$2" && say "$1 completions: $2" && return 0
    rm -f "$2.tmp"
    say "note: could not write $1 completions to $2 (askhook completions $1 prints them)"
}

# Shell completions where each shell's standard folder exists, and man pages beside the binary
# (man finds <prefix>/share/man for a <prefix>/bin on PATH). Nothing here can fail the install.
install_extras() {
    data_home=${XDG_DATA_HOME:-"$HOME/.local/share"}
    config_home=${XDG_CONFIG_HOME:-"$HOME/.config"}
    for f in /usr/share/bash-completion/bash_completion /etc/bash_completion \
        /usr/local/share/bash-completion/bash_completion /opt/homebrew/etc/profile.d/bash_completion.sh \
        "$data_home/bash-completion"; do
        if [ -e "$f" ]; then
            put_completion bash "$data_home/bash-completion/completions/askhook"
            break
        fi
    done
    zdir=${ZDOTDIR:-"$HOME"}
    if [ -d "$zdir/.oh-my-zsh/completions" ]; then
        put_completion zsh "$zdir/.oh-my-zsh/completions/_askhook"
    elif [ -d "$zdir/.zfunc" ]; then
        put_completion zsh "$zdir/.zfunc/_askhook"
    elif command -v zsh >/dev/null 2>&1; then
        say "zsh: 'askhook completions zsh > ~/.zfunc/_askhook' with 'fpath+=~/.zfunc' before compinit in ~/.zshrc"
    fi
    if [ -d "$config_home/fish" ]; then
        put_completion fish "$config_home/fish/completions/askhook.fish"
    fi
    man_dir=$(dirname -- "$bin_dir")/share/man/man1
    if "$bin" man --dir "$man_dir" >/dev/null 2>&1; then
        say "man pages: $man_dir ('man askhook')"
    else
        say "note: could not write man pages to $man_dir ('askhook man | man -l -' shows them)"
    fi
}

case ":$PATH:" in
    *":$bin_dir:"*) on_path=1 ;;
    *) on_path=0 ;;
esac

if [ "$plugin" -eq 1 ]; then
    [ -f "$repo/hooks/hooks.json" ] || die "the plugin route links bin/askhook into a clone of askhook, and $repo is not one"
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

install_extras

if [ "$on_path" -eq 0 ]; then
    say "note: $bin_dir is not on your PATH, so 'askhook' alone will not be found in this shell."
    say "      Add this line to your shell profile (~/.profile, ~/.bashrc or ~/.zshrc):"
    say "        export PATH=\"$bin_dir:\$PATH\""
    say "      (the hook itself is registered by absolute path and works either way)."
fi
say "done. Try 'askhook doctor' for a self-test, and 'askhook demo' for a tour."
