#!/usr/bin/env bash
# Checks that the fuzz targets in fuzz/ (parse_board, api_body, solve_small) still build. For .ci/run.
#
#   scripts/fuzz-build.sh            # cargo +nightly fuzz build --dev (installs nightly and cargo-fuzz if missing)
#   scripts/fuzz-build.sh --release  # the optimised build the fuzzers run with
#   scripts/fuzz-build.sh --check    # only type-check the targets (stable is enough; no C++ compiler needed)
#
# The real build needs the nightly toolchain (sanitizer flags), cargo-fuzz and a C++ compiler (libFuzzer is built
# from source). When nightly or cargo-fuzz cannot be installed, or that build fails while the targets' own code is
# fine (a broken nightly, no C++ compiler), the script falls back to `cargo check` of the fuzz crate, which still
# catches what usually breaks: the targets no longer compiling against the library. A compile error in the targets
# fails either way.
#
# Exit status: 0 the targets build (or, after a fallback, compile); 1 they do not.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "fuzz-build: $*" >&2; }

mode=dev
case "${1:-}" in
    "") ;;
    --release) mode=release ;;
    --check) mode=check ;;
    *)
        echo "usage: $0 [--release|--check]" >&2
        exit 2
        ;;
esac

have_nightly() { command -v rustup >/dev/null 2>&1 && rustup run nightly rustc --version >/dev/null 2>&1; }

check_only() {
    # libfuzzer-sys compiles libFuzzer (C++) in its build script unless told where a built one is; a check never
    # links, so any path will do.
    local toolchain=()
    if have_nightly; then toolchain=(+nightly); fi
    log "cargo ${toolchain[*]} check of the fuzz targets"
    CUSTOM_LIBFUZZER_PATH=/nonexistent/libfuzzer.a \
        cargo "${toolchain[@]}" check --manifest-path fuzz/Cargo.toml --bins
}

if [ "$mode" = check ]; then
    if check_only; then exit 0; else exit 1; fi
fi

if ! have_nightly && command -v rustup >/dev/null 2>&1; then
    log "installing the nightly toolchain"
    rustup toolchain install nightly --profile minimal || log "could not install nightly"
fi
if have_nightly && ! command -v cargo-fuzz >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz --locked || log "could not install cargo-fuzz"
fi

if have_nightly && command -v cargo-fuzz >/dev/null 2>&1; then
    args=()
    if [ "$mode" = dev ]; then args=(--dev); fi
    log "cargo +nightly fuzz build ${args[*]}"
    if cargo +nightly fuzz build "${args[@]}"; then
        log "ok: the fuzz targets build"
        exit 0
    fi
    log "cargo fuzz build failed; checking whether the targets themselves compile"
    if check_only; then
        log "the targets compile, but cargo fuzz build failed (toolchain or C++ compiler?): see above"
        exit 0
    fi
    exit 1
fi

log "no nightly toolchain or cargo-fuzz: falling back to a check"
if check_only; then exit 0; else exit 1; fi
