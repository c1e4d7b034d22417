#!/usr/bin/env bash
# Installs, from Debian's archive, whatever dpstub needs that is missing, and
# does nothing when everything is already there. Safe to run again.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  llvm-19-dev llvm-19-tools libclang-19-dev libclang-cpp19-dev clang-19 clang-tools-19 libmlir-19-dev
  libomp-19-dev
  libgtest-dev libgmock-dev libtbb-dev libbenchmark-dev libboost-context-dev neovim
  hipcc libamdhip64-dev librocprim-dev
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
