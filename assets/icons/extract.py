#!/usr/bin/env python3
"""Writes assets/icons/<unit-id>.svg from the game-icons.net set as published on npm
(@iconify-json/game-icons, CC BY 3.0), and assets/CREDITS.

    cd "$(mktemp -d)" && npm pack @iconify-json/game-icons && tar xzf iconify-json-game-icons-*.tgz
    python3 assets/icons/extract.py "$PWD/package/icons.json"

Each unit id maps to (icon name, author). The author is the game-icons.net contributor folder
the icon lives in upstream."""
import json, os, sys

UNITS = {
    # Tokar's Arcana and Undead Arcana
    "imperial-warrior": ("centurion-helmet", "Delapouite"),
    "blue-knight": ("visored-helm", "Lorc"),
    "wind-mage": ("wizard-face", "Delapouite"),
    "priest-of-the-winds": ("monk-face", "Delapouite"),
    "alchemist": ("bubbling-flask", "Lorc"),
    "duelist": ("fencer", "Delapouite"),
    "battle-mage": ("wizard-staff", "Lorc"),
    "skeleton": ("skull-crossed-bones", "Lorc"),
    "zombie": ("shambling-zombie", "Delapouite"),
    "mummy": ("mummy-head", "Delapouite"),
    "tomb-keeper": ("anubis", "Delapouite"),
    "dark-priest": ("cowled", "Lorc"),
    "necromancer": ("skull-staff", "Delapouite"),
    "ghoul": ("fanged-skull", "Lorc"),
    "ghost": ("ghost", "Lorc"),
    "cultist": ("cultist", "Skoll"),
    "wraith": ("spectre", "Lorc"),
    "vampire": ("vampire-dracula", "Delapouite"),
    "lich": ("crowned-skull", "Lorc"),
    # Magic Chess
    "magic-king": ("chess-king", "Skoll"),
    "magic-wizard": ("pointy-hat", "Lorc"),
    "magic-fairy": ("fairy", "Lorc"),
    "magic-frog": ("frog", "Lorc"),
    "magic-pawn": ("chess-pawn", "Skoll"),
    # Gladiator Chess
    "gladiator-king": ("throne-king", "Delapouite"),
    "gladiator-queen": ("queen-crown", "Lorc"),
    "mounted-knight": ("mounted-knight", "Skoll"),
    "footman": ("pikeman", "Delapouite"),
    "champion": ("spartan-helmet", "Delapouite"),
    "warrior": ("barbarian", "Delapouite"),
    "black-knight": ("black-knight-helm", "Delapouite"),
    "scout": ("walking-scout", "Delapouite"),
    "kings-knight": ("chess-knight", "Skoll"),
    "squire": ("light-helm", "Delapouite"),
    # Arachne
    "matron": ("spider-face", "Carl Olsen"),
    "priestess": ("witch-face", "Cathelineau"),
    "arachne-wizard": ("warlock-hood", "Delapouite"),
    "blademaster": ("dervish-swords", "Lorc"),
    "grunt": ("angular-spider", "Lorc"),
}

def main(icons_json):
    data = json.load(open(icons_json))
    here = os.path.dirname(os.path.abspath(__file__))
    w, h = data.get("width", 512), data.get("height", 512)
    lines = []
    for unit, (icon, author) in UNITS.items():
        body = data["icons"][icon]["body"].replace('fill="currentColor"', 'fill="#fff"')
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">{body}</svg>\n'
        with open(os.path.join(here, unit + ".svg"), "w") as f:
            f.write(svg)
        lines.append(f"icons/{unit}.svg: \"{icon}\" by {author}, https://game-icons.net, CC BY 3.0")
    with open(os.path.join(here, "..", "CREDITS"), "w") as f:
        f.write("Tokar's pictures use the following third-party art.\n\n")
        f.write("Piece icons: game-icons.net (https://game-icons.net), licensed CC BY 3.0\n")
        f.write("(see LICENSE-game-icons). Taken from the npm package @iconify-json/game-icons;\n")
        f.write("the only change is the fill colour (white, tinted per seat when drawn).\n\n")
        f.write("\n".join(lines) + "\n\n")
        f.write("Font: DejaVu Sans and DejaVu Sans Bold (fonts/), from Debian's fonts-dejavu-core;\n")
        f.write("Bitstream Vera licence with DejaVu changes in the public domain (see fonts/LICENSE-DejaVu).\n")

if __name__ == "__main__":
    main(sys.argv[1])
