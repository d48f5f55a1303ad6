#!/usr/bin/env python3
"""Writes the binary seeds of fuzz/corpus (the text seeds are written by hand
or copied from tests/data; corpus/README.md says which): games for
fuzz_infer and fuzz_notation in the byte layout of game_bytes.h. The same
files every time (a fixed random seed): python3 fuzz/seeds.py"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def header(b0, deck, b2, b3, rng):
    """Four bytes of rules (game_bytes.h gb_rules) and eight of seed."""
    return bytes([b0, deck, b2, b3]) + rng.randbytes(8)


def actions(rng, n):
    """n actions: mostly the k-th legal one (selector 0xC0-0xEF), one in
    five a claim from the true hands (0xF0 and up)."""
    out = bytearray()
    for _ in range(n):
        sel = rng.randrange(0xF0, 0x100) if rng.random() < 0.2 else rng.randrange(0xC0, 0xF0)
        out += bytes([sel]) + rng.randbytes(3)
    return bytes(out)


def write(target, name, data):
    path = os.path.join(HERE, "corpus", target, name)
    with open(path, "wb") as f:
        f.write(data)


def main():
    rng = random.Random(8)
    # fuzz_infer: b0 & 1 chooses 6 players (else 4), 8 with b0 & 0x80 too;
    # the byte after the header the viewer (players: the public view)
    infer = [
        ("classic4_seat1", 0, 0, 0, 0, 0),
        ("classic6_seat3", 1, 0, 0, 0, 2),
        ("classic4_public", 2, 0, 0, 0, 4),
        ("jokers6_seat2", 3, 3, 0, 0, 1),
        ("quartets4_public", 4, 4, 0, 0, 4),
        ("bluff_mustclaim4_seat4", 0, 0, 0, 0x06, 3),
        ("split_opponents6_seat6", 1, 0, 0x01, 0x01, 5),
        ("passplay_team4_seat2", 0, 0, 0x10, 0x20, 1),
    ]
    for name, b0, deck, b2, b3, viewer in infer:
        write("infer", name + ".bin",
              header(b0, deck, b2, b3, rng) + bytes([viewer]) + actions(rng, 60))
    # fuzz_notation: 0xF0 first, then a game (4, 6 and 8 players)
    games = [
        ("game_classic4", 0, 0, 0, 0),
        ("game_jokers6_pointoff", 1, 3, 0x02, 0x08),
        ("game_quartets8_anytime", 2, 4, 0x04, 0x11),
    ]
    for name, b0, deck, b2, b3 in games:
        write("notation", name + ".bin",
              bytes([0xF0]) + header(b0, deck, b2, b3, rng) + actions(rng, 96))
    # fuzz_infer at 8 players: b0 & 0x81 (written last, so that the files
    # above stay as they were)
    infer8 = [
        ("classic8_seat5", 0x81, 0, 0, 0, 4),
        ("no2deck8_mustclaim_public", 0x83, 1, 0, 0x04, 8),
    ]
    for name, b0, deck, b2, b3, viewer in infer8:
        write("infer", name + ".bin",
              header(b0, deck, b2, b3, rng) + bytes([viewer]) + actions(rng, 120))


if __name__ == "__main__":
    main()
