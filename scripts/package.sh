#!/usr/bin/env bash
# Builds the player's release binary and a distributable archive for the host platform:
#   dist/gridclash-<version>-<target>.tar.gz   Linux and macOS (macOS: a Gridclash.app inside)
#   dist/gridclash-<version>-<target>.zip      Windows
# Each holds the executable, assets/, rules/, README.md, the book's chapters (docs/src/) and
# both licences; the game finds its data beside the executable (or in the app bundle's
# Resources). Prints the sizes.
# Set TARGET to build for another installed target (e.g. x86_64-apple-darwin on Apple silicon).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
host=$(rustc -vV | sed -n 's/^host: //p')
target=${TARGET:-$host}
name="gridclash-$version-$target"
stage="dist/$name"

if [ "$target" = "$host" ]; then
  cargo build --release --locked
  bin_dir=target/release
else
  cargo build --release --locked --target "$target"
  bin_dir="target/$target/release"
fi

exe=gridclash
case "$target" in *windows*) exe=gridclash.exe ;; esac

rm -rf "$stage" "dist/$name.tar.gz" "dist/$name.zip"
mkdir -p "$stage"
case "$target" in
  *apple-darwin)
    app="$stage/Gridclash.app/Contents"
    mkdir -p "$app/MacOS" "$app/Resources"
    cp "$bin_dir/$exe" "$app/MacOS/gridclash"
    cp -R assets rules "$app/Resources/"
    cp assets/icons/gridclash.icns "$app/Resources/gridclash.icns"
    cat > "$app/Info.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleInfoDictionaryVersion</key><string>6.0</string>
  <key>CFBundleName</key><string>Gridclash</string>
  <key>CFBundleDisplayName</key><string>Gridclash</string>
  <key>CFBundleIdentifier</key><string>io.github.gridclash.Gridclash</string>
  <key>CFBundleExecutable</key><string>gridclash</string>
  <key>CFBundleIconFile</key><string>gridclash</string>
  <key>CFBundlePackageType</key><string>APPL</string>
  <key>CFBundleVersion</key><string>$version</string>
  <key>CFBundleShortVersionString</key><string>$version</string>
  <key>LSMinimumSystemVersion</key><string>11.0</string>
  <key>NSHighResolutionCapable</key><true/>
  <key>LSApplicationCategoryType</key><string>public.app-category.strategy-games</string>
</dict>
</plist>
PLIST
    ;;
  *)
    cp "$bin_dir/$exe" "$stage/$exe"
    cp -R assets rules "$stage/"
    ;;
esac
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/"
# The book's chapters (Markdown) beside the README, whose links point into docs/src/.
mkdir -p "$stage/docs"
cp -R docs/src "$stage/docs/"

case "$target" in
  *windows*)
    archive="dist/$name.zip"
    # Python's zipfile is on every runner; Git Bash on Windows has no zip command.
    (cd dist && python -m zipfile -c "$name.zip" "$name/" 2>/dev/null \
      || python3 -m zipfile -c "$name.zip" "$name/")
    ;;
  *)
    archive="dist/$name.tar.gz"
    tar -C dist -czf "$archive" "$name"
    ;;
esac

size() { wc -c < "$1" | tr -d ' '; }
bin_path="$bin_dir/$exe"
echo "executable: $bin_path $(size "$bin_path") bytes"
echo "archive:    $archive $(size "$archive") bytes"
