"""A GTP engine on pipes for the bench scripts, and GNU Go's path.

`Gtp(cmd).ask(line)` sends one command and returns the reply's text after `=`; a `?`
reply, or the engine dying, raises RuntimeError. Lines before the reply (chatter some
engines print on stdout) are skipped. `Gtp(cmd, keep_stderr=True)` also collects the
engine's stderr lines in the queue `err` (Pachi prints its search's verdict there).
"""
import os
import queue
import subprocess
import threading


def gnugo_path():
    """GNU Go's binary, installed first if need be (bench/install-peers.sh)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([os.path.join(here, "install-peers.sh")], check=True,
                         capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]


class Gtp:
    def __init__(self, argv, keep_stderr=False):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE if keep_stderr else subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.err = queue.Queue()
        if keep_stderr:
            # Read as it comes, so that a full pipe never blocks the engine.
            threading.Thread(target=self._read_err, daemon=True).start()

    def _read_err(self):
        for line in self.p.stderr:
            self.err.put(line)

    def ask(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        reply = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine died after {cmd!r}")
            if line.strip() == "" and reply:
                break
            if not reply and not line.startswith(("=", "?")):
                continue  # chatter before the reply
            if line.strip():
                reply.append(line.strip())
        text = " ".join(reply)
        if not text.startswith("="):
            raise RuntimeError(f"{cmd!r}: {text}")
        return text[1:].strip()

    def quit(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        self.p.wait()
