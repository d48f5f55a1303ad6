#!/usr/bin/env python3
"""Drives `lit play` in plain mode through a pipe, as a script or a screen
reader would (tests/integration/cli_play.sh). Usage:

    play_driver.py MOVES LIT [lit play arguments...]

On each 'your turn' it first sends the commands of the list PRE (once), then
asks for a hint and plays it; after MOVES of its own moves it quits (0: play
to the end). Prints the whole conversation, the driver's lines marked '> '.
"""
import subprocess
import sys

moves, cmd = int(sys.argv[1]), sys.argv[2:]
pre = []
if "--pre" in cmd:
    i = cmd.index("--pre")
    pre = cmd[i + 1].split(";")
    del cmd[i:i + 2]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    print("> " + line)
    p.stdin.write(line + "\n")
    p.stdin.flush()


played = 0
for line in p.stdout:
    line = line.rstrip("\n")
    print(line)
    if line.startswith("your turn"):
        for c in pre:
            send(c)
        pre = []
        if moves and played == moves:
            send("quit")
            continue
        send("hint")
    elif line.startswith("hint: "):
        # the move, without why (" (hits 62%)")
        send(line[len("hint: "):].split(" (")[0])
        played += 1
p.stdin.close()
sys.exit(p.wait())
