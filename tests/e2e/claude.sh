# Sourced by tests/e2e/setup and tests/e2e/run: which Claude Code CLI the suite pins, which npm
# package carries it for this machine, and where setup puts it. Bump PIN here, then see
# "When the pinned CLI moves" in tests/e2e/README.md.
#
# Env: ASKHOOK_E2E_CACHE  the cache folder (default ~/.cache/askhook-e2e)
#
# Sets PIN, CACHE, PLATFORM (e.g. linux-x64; empty when Claude Code publishes no build for this
# machine), PKG (the npm package) and CLAUDE_PINNED (the binary setup installs; empty likewise).
#
# The CLI is a native binary published per platform as @anthropic-ai/claude-code-<platform>;
# the @anthropic-ai/claude-code package people install is a wrapper whose install script picks
# that package and links its binary. The suite runs the binary and nothing else, so setup
# installs the platform package alone: no wrapper, no install script, and no Node.js version
# requirement (the wrapper's `engines: node >=22` is for its install script).

PIN=2.1.328
CACHE="${ASKHOOK_E2E_CACHE:-$HOME/.cache/askhook-e2e}"

claude_platform() {
  local os arch libc=""
  case "$(uname -s)" in
    Linux) os=linux ;;
    *) return 0 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) return 0 ;;
  esac
  if ldd --version 2>&1 | grep -qi musl; then libc=-musl; fi
  echo "$os-$arch$libc"
}

PLATFORM="$(claude_platform)"
PKG=""
CLAUDE_PINNED=""
if [ -n "$PLATFORM" ]; then
  PKG="@anthropic-ai/claude-code-$PLATFORM"
  CLAUDE_PINNED="$CACHE/node_modules/$PKG/claude"
fi
