#!/usr/bin/env bash
# Makes the game's icons: every file stem named in assets/icons/icons.ron becomes
# assets/icons/game-icons/<stem>.png, a 64x64 RGBA white (#ffffff) glyph on transparency (the
# game tints it), rasterised with rsvg-convert from game-icons.net's SVG as shipped in the
# pinned npm package below (CC BY 3.0; see assets/icons/game-icons/LICENSE.md). PNGs in that
# folder that icons.ron no longer names are removed, so the folder matches the map exactly.
#
# Needs npm (and so node) and rsvg-convert (Debian: apt-get install librsvg2-bin). Run from
# anywhere: scripts/fetch-icons.sh. GAME_ICONS_TGZ=path/to/the.tgz uses a tarball already
# downloaded (it must be the pinned one: its SHA-1 is checked).
set -euo pipefail

PACKAGE="@iconify-json/game-icons"
VERSION="1.2.4"
# The registry's dist.shasum of ${PACKAGE}@${VERSION}.
SHA1="a0a19eb4a4ab4c6544856a2f2755457473cc8aec"
SIZE=64

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
map="$root/assets/icons/icons.ron"
out="$root/assets/icons/game-icons"

for tool in node rsvg-convert; do
    command -v "$tool" >/dev/null || { echo "fetch-icons: $tool is not installed" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -n "${GAME_ICONS_TGZ:-}" ]]; then
    tgz="$GAME_ICONS_TGZ"
else
    command -v npm >/dev/null || { echo "fetch-icons: npm is not installed" >&2; exit 1; }
    (cd "$work" && npm pack --silent "${PACKAGE}@${VERSION}" >/dev/null)
    tgz="$(ls "$work"/*.tgz)"
fi
echo "$SHA1  $tgz" | sha1sum --check --quiet \
    || { echo "fetch-icons: $tgz is not ${PACKAGE}@${VERSION}" >&2; exit 1; }
tar -xzf "$tgz" -C "$work"

# The stems: every quoted value of a "key": "value" entry, comments left out.
mapfile -t stems < <(sed 's://.*$::' "$map" \
    | grep -o '"[^"]*"[[:space:]]*:[[:space:]]*"[^"]*"' \
    | sed 's/.*:[[:space:]]*"\([^"]*\)"$/\1/' \
    | sort -u)
[[ ${#stems[@]} -gt 0 ]] || { echo "fetch-icons: no icons named in $map" >&2; exit 1; }

# One standalone SVG per stem, its glyph white ("currentColor" is the set's only fill).
mkdir -p "$work/svg"
node - "$work/package/icons.json" "$work/svg" "${stems[@]}" <<'EOF'
const fs = require("fs");
const [json, dir, ...stems] = process.argv.slice(2);
const set = JSON.parse(fs.readFileSync(json, "utf8"));
let missing = [];
for (const stem of stems) {
    let name = stem;
    while (!set.icons[name] && set.aliases && set.aliases[name]) name = set.aliases[name].parent;
    const icon = set.icons[name];
    if (!icon) { missing.push(stem); continue; }
    const w = icon.width ?? set.width ?? 16, h = icon.height ?? set.height ?? 16;
    const body = icon.body.replaceAll("currentColor", "#ffffff");
    fs.writeFileSync(`${dir}/${stem}.svg`,
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>\n`);
}
if (missing.length) { console.error(`fetch-icons: not in the package: ${missing.join(" ")}`); process.exit(1); }
EOF

mkdir -p "$out"
for stem in "${stems[@]}"; do
    rsvg-convert --width "$SIZE" --height "$SIZE" --keep-aspect-ratio \
        --output "$out/$stem.png" "$work/svg/$stem.svg"
done

# Leave only the PNGs the map names.
for png in "$out"/*.png; do
    stem="$(basename "$png" .png)"
    printf '%s\n' "${stems[@]}" | grep -qxF "$stem" || rm -f "$png"
done
echo "fetch-icons: ${#stems[@]} icons from ${PACKAGE}@${VERSION} in ${out#"$root"/}"
