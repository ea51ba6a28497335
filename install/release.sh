#!/bin/sh
# askhook release: build a stripped binary tarball and its SHA-256 file per target, beside a
# copy of install.sh, so that `sh install.sh` installs askhook on a machine without Rust.
# POSIX sh.
#
#   install/release.sh                      the host's target
#   install/release.sh --target TRIPLE ...  these targets (each needs `rustup target add TRIPLE`
#                                           and a linker for it)
#   install/release.sh --out DIR            write into DIR (default: dist)
#
# Writes, per target, DIR/askhook-<version>-<target>.tar.gz (one folder of the same name holding
# askhook, README.md, LICENSE) and DIR/askhook-<version>-<target>.tar.gz.sha256 (`sha256sum`
# format, so `sha256sum -c` checks it), and DIR/install.sh. The build is the release profile
# (LTO, stripped) with `--locked`, from the repository root so .cargo/config.toml applies. With
# GNU tar the archive is reproducible: sorted names, owner 0, mtime of the last commit
# (or $SOURCE_DATE_EPOCH).

set -eu

say() { printf 'askhook-release: %s\n' "$*"; }
die() { printf 'askhook-release: error: %s\n' "$*" >&2; exit 1; }

script_dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || die "cannot find the script's folder"
repo=$(CDPATH= cd -- "$script_dir/.." && pwd)
[ -f "$repo/Cargo.toml" ] || die "$repo/Cargo.toml not found; run this script from a clone of askhook"

targets=""
out="$repo/dist"
while [ $# -gt 0 ]; do
    case "$1" in
        --target) [ $# -ge 2 ] || die "--target needs a value"; targets="$targets $2"; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift ;;
        -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

command -v cargo >/dev/null 2>&1 || die "cargo not found on PATH (https://rustup.rs)"
host=$(rustc -vV | sed -n 's/^host: //p')
[ -n "$targets" ] || targets=$host
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
[ -n "$version" ] || die "no version in $repo/Cargo.toml"
mkdir -p "$out" || die "cannot create $out"
out=$(CDPATH= cd -- "$out" && pwd)

if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum "$1"; }
elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 "$1"; }
else
    die "neither sha256sum nor shasum is installed"
fi

epoch=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)}
# tar with the flags that make it reproducible when it is GNU tar; plain POSIX tar otherwise.
pack() {
    if tar --version 2>/dev/null | grep -q GNU; then
        tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$1"
    else
        tar -cf - "$1"
    fi
}

target_dir=${CARGO_TARGET_DIR:-"$repo/target"}
for target in $targets; do
    name="askhook-$version-$target"
    say "building $name"
    if [ "$target" = "$host" ]; then
        # The host's own build, in target/release (what `cargo build --release` already made).
        (cd "$repo" && cargo build --release --locked) || die "cargo build failed"
        binary="$target_dir/release/askhook"
    else
        (cd "$repo" && cargo build --release --locked --target "$target") ||
            die "cargo build for $target failed (is the target installed: rustup target add $target?)"
        binary="$target_dir/$target/release/askhook"
    fi
    [ -x "$binary" ] || die "cargo built no $binary"
    if [ "$target" = "$host" ]; then
        "$binary" --version >/dev/null || die "$binary does not run"
    fi
    stage=$(mktemp -d) || die "cannot create a temporary folder"
    mkdir "$stage/$name"
    cp "$binary" "$stage/$name/askhook"
    # The release profile strips already (strip = true); strip again only if a tool for the
    # host's own binaries is at hand, so a cross build is never damaged by the wrong strip.
    if [ "$target" = "$host" ] && command -v strip >/dev/null 2>&1; then
        strip "$stage/$name/askhook" 2>/dev/null || true
    fi
    cp "$repo/README.md" "$repo/LICENSE" "$stage/$name/"
    chmod 755 "$stage/$name/askhook"
    chmod 644 "$stage/$name/README.md" "$stage/$name/LICENSE"
    (cd "$stage" && pack "$name") | gzip -n -9 >"$out/$name.tar.gz" || die "cannot write $out/$name.tar.gz"
    rm -rf "$stage"
    (cd "$out" && sha256 "$name.tar.gz") >"$out/$name.tar.gz.sha256"
    say "wrote $out/$name.tar.gz and $name.tar.gz.sha256"
done
cp "$script_dir/install.sh" "$out/install.sh"
say "wrote $out/install.sh: copy the folder (or install.sh with a tarball and its .sha256) to a machine and run 'sh install.sh'"
