#!/usr/bin/env bash
# release/check.sh DIR VERSION: checks what release/dist.sh built.
# Each archive unpacks to a binary of its target (file(1) says so), with
# README.md and LICENSE; each .vsix holds its target's binary (the same
# bytes as the archive's) and names that target in its manifest; the
# checksums match; the binary of this machine's target says VERSION.
set -euo pipefail
dir=$1 version=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "release/check: $*" >&2; exit 1; }

(cd "$dir" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files"

# want_file is what file(1) says of a binary of OS/ARCH.
want_file() {
  case $1 in
    linux/amd64) echo 'ELF 64-bit LSB.*x86-64' ;;
    linux/arm64) echo 'ELF 64-bit LSB.*aarch64' ;;
    darwin/amd64) echo 'Mach-O 64-bit.*x86_64' ;;
    darwin/arm64) echo 'Mach-O 64-bit.*arm64' ;;
    windows/amd64) echo 'PE32\+ executable.*x86-64' ;;
    windows/arm64) echo 'PE32\+ executable.*Aarch64' ;;
    *) echo "no file(1) pattern for $1" >&2; return 1 ;;
  esac
}

n=0
for a in "$dir"/eukhe_*; do
  base=$(basename "$a")
  name=${base%.tar.gz}; name=${name%.zip}
  rest=${name#eukhe_"$version"_}
  [ "$rest" != "$name" ] || fail "$base does not carry the version $version"
  os=${rest%_*} arch=${rest#*_}
  exe=eukhe; [ "$os" = windows ] && exe=eukhe.exe
  case $base in
    *.zip) [ "$os" = windows ] || fail "$base: only Windows gets a zip"; unzip -q "$a" -d "$work" ;;
    *.tar.gz) [ "$os" != windows ] || fail "$base: Windows gets a zip"; tar -C "$work" -xzf "$a" ;;
    *) fail "$base: not an archive" ;;
  esac
  bin=$work/$name/$exe
  [ -f "$bin" ] || fail "$base holds no $name/$exe"
  [ -f "$work/$name/README.md" ] && [ -f "$work/$name/LICENSE" ] || fail "$base lacks README.md or LICENSE"
  what=$(file -b "$bin")
  echo "$what" | grep -Eq "$(want_file "$os/$arch")" || fail "$base: $exe is not a $os/$arch binary: $what"
  if [ "$os/$arch" = "$(go env GOOS)/$(go env GOARCH)" ]; then
    got=$("$bin" version)
    [ "$got" = "eukhe $version" ] || fail "$base: eukhe version says \"$got\", not \"eukhe $version\""
  fi
  vt=$os-$arch; vt=${vt/windows/win32}; vt=${vt/amd64/x64}
  for v in "$dir"/eukhe-"$vt"-*.vsix; do
    [ -e "$v" ] || continue
    unzip -q -o "$v" -d "$work/vsix-$vt"
    cmp -s "$work/vsix-$vt/extension/bin/$exe" "$bin" || fail "$(basename "$v") does not hold the $os/$arch binary as extension/bin/$exe"
    grep -q "TargetPlatform=\"$vt\"" "$work/vsix-$vt/extension.vsixmanifest" || fail "$(basename "$v"): its manifest does not name the target $vt"
    [ -f "$work/vsix-$vt/extension/dist/extension.js" ] || fail "$(basename "$v") holds no dist/extension.js"
    n=$((n + 1))
  done
  n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "nothing to check in $dir"
echo "release/check: $n archives and packages hold their target's binary; checksums match"
