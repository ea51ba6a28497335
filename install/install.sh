#!/bin/sh
# askhook installer: build the release binary, put it on the PATH, register it in Claude Code's
# user settings, then show the result. POSIX sh (runs under dash), idempotent, never prompts.
#
#   install/install.sh            build + install ~/.cargo/bin/askhook, `askhook install`, `askhook status`,
#                                 shell completions and man pages
#   install/install.sh --plugin   build + install, link bin/askhook for the Claude Code plugin route
#                                 (hooks/hooks.json runs ${CLAUDE_PLUGIN_ROOT}/bin/askhook); no settings edit
#   install/install.sh --help
#
# Needs only a Rust toolchain (https://rustup.rs); no network beyond cargo's registry.
# Extra arguments after `--` go to `askhook install` (e.g. `-- --scope project`).
# Completions go where each shell looks, when that shell's folder exists (bash-completion's
# user folder, ~/.zfunc or oh-my-zsh's completions folder, ~/.config/fish); man pages go to
# <prefix>/share/man/man1 beside <prefix>/bin/askhook.

set -eu

say() { printf 'askhook-install: %s\n' "$*"; }
die() { printf 'askhook-install: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
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
    mkdir -p "$repo/bin" || die "cannot create $repo/bin"
    # A symlink: `--plugin-dir` sees the live binary, and Claude Code follows it when it copies
    # the plugin into its cache on `/plugin install`.
    ln -sf "$bin" "$repo/bin/askhook" || die "cannot link $repo/bin/askhook"
    say "linked $repo/bin/askhook -> $bin"
    "$bin" status || die "'askhook status' failed"
    say "next: in Claude Code run '/plugin marketplace add $repo' then '/plugin install askhook@askhook'"
    say "      (or start 'claude --plugin-dir $repo' to try it for one session)."
    say "      Use either the plugin or 'askhook install', not both: both would run the hook twice."
    if "$bin" status --json 2>/dev/null | grep -q '"command": ".*askhook"'; then
        say "warning: askhook is also registered in a settings file (see 'askhook status' above);"
        say "         run 'askhook uninstall' (with its --scope) if you switch to the plugin."
    fi
else
    "$bin" install "$@" || die "'askhook install' failed (its message above says why); your settings file was not changed"
    "$bin" status || die "'askhook status' failed"
fi

install_extras

if [ "$on_path" -eq 0 ]; then
    say "note: $bin_dir is not on your PATH, so 'askhook' alone will not be found in this shell."
    say "      Add this line to your shell profile (~/.profile, ~/.bashrc or ~/.zshrc):"
    say "        export PATH=\"$bin_dir:\$PATH\""
    say "      (the hook itself is registered by absolute path and works either way)."
fi
say "done. Try 'askhook doctor' for a self-test, and 'askhook demo' for a tour."
