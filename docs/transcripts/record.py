#!/usr/bin/env python3
"""Records a console transcript of one game against the computer opponent.

alice plays by following /hint; Tokar fills the other seats. With a fixed
--seed and --robot-iterations the game is reproducible: the script first
plays it interactively to find alice's moves, then replays the input once in
plain text to write the transcript.

    python3 docs/transcripts/record.py target/debug/tokar "/new game:arachne opponent:@Tokar variant:convenient" docs/transcripts/arachne.md "Arachne"
"""
import json, os, select, subprocess, sys, tempfile, time

tokar, new_line, out_path, title = sys.argv[1:5]
max_turns = int(sys.argv[5]) if len(sys.argv) > 5 else 400
ARGS = ["--seed", "7", "--robot-iterations", "60"]


def session(data, json_mode):
    cmd = [tokar, "console", "--data", data] + ARGS + (["--json"] if json_mode else [])
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)


def read_quiet(p, idle=1.5):
    """Lines printed until the console has been quiet for `idle` seconds."""
    lines, last = [], time.time()
    while time.time() - last < idle:
        r, _, _ = select.select([p.stdout], [], [], 0.1)
        if r:
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
            last = time.time()
    return lines


def show(msgs):
    out = []
    for m in msgs:
        who = f" (only {m['ephemeral_to']})" if m["ephemeral_to"] else ""
        refused = "" if m["ok"] else " [refused]"
        pics = "".join(f"\n  [picture {os.path.basename(i)}]" for i in m["images"])
        body = m["content"].replace("\n", "\n  ")
        out.append(f"#{m['channel']}{who}{refused}:\n  {body}{pics}")
    return out


log = []
with tempfile.TemporaryDirectory() as data:
    p = session(data, True)

    def say(line, keep=True):
        p.stdin.write(line + "\n")
        msgs = [json.loads(l) for l in read_quiet(p) if l.startswith("{")]
        if keep:
            log.append("> " + line)
            log.extend(show(msgs))
        return msgs

    say("@alice " + new_line)
    over, moves = False, 0
    for _ in range(max_turns):
        msgs = say("@alice /hint", keep=False)
        hint = next((m["content"] for m in msgs if "/play action:" in m["content"]), None)
        if hint is None:
            over = True
            break
        action = hint.split("/play action:", 1)[1].split("\n", 1)[0].strip()
        say(f'@alice /play action:"{action}"')
        moves += 1
    say("@alice /board")
    p.stdin.close()
    p.wait()

with open(out_path, "w") as f:
    f.write(f"# A console transcript: {title}\n\n")
    f.write("Recorded with `python3 docs/transcripts/record.py` (see its header) from\n")
    f.write(f"`tokar console --json {' '.join(ARGS)}`: alice plays what `/hint` suggests (the hint\n")
    f.write("exchanges are left out) and Tokar, the computer opponent, holds the other seats.\n")
    f.write("Lines starting with `>` are typed; below each, what Tokar answered, by channel.\n\n```text\n")
    f.write("\n".join(log) + "\n```\n")
print(f"{out_path}: {moves} moves by alice, finished={over}")
