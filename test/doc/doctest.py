#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Suite doc: every command README.md and doc/guides show, run as written.

usage: doctest.py BUILD_DIR SOURCE_DIR [--list]

Which blocks hold commands:

- README.md: every fenced block (```) but those tagged ``text`` (plans,
  outputs);
- doc/guides/*.rst and doc/guides/nics/*.rst: every literal block (``::``
  or ``.. code-block::``) tagged ``console``, ``shell``, ``sh`` or
  ``bash``, or whose first word is a command: ``$``/``#`` prompts, a
  program on PATH, ``make``, ``sudo``, or a path into the tree
  (``build/``, ``scripts/``, ``test/``).

In a block with ``$``/``#`` prompts only the prompted lines are commands
(the rest is their output); otherwise the lines whose first word is a
command are (the rest is output, or the options under a synopsis); a
trailing backslash joins the next line. Lines ``testpmd> ...`` are a session: typed, in order,
into the interactive testpmd (``-i``) started last in the same section,
with those of the section's later blocks. Each command is one case.

A command runs unless a rule below skips it; a skipped command is printed
``SKIP`` with its reason and counted as neither passed nor failed:

- a template: placeholders (``<dir>``, ``[options]``, ``BUILD_DIR``);
- real hardware: ``dev=`` or a PCI address (``-a``, ``0000:...``);
- it changes the system: ``sudo``, ``make install``/``uninstall``,
  ``apt``, ``scripts/install_check.sh``;
- minutes of runtime: ``make test``/``bench``/``fuzz``/``deb``/
  ``test-tsan``/``coverage``, ``valgrind``, and commands that read what such a one
  wrote;
- a verdict that depends on the machine's load: ``make demo`` and
  ``dpdk-tm-pace`` on the device model in real time (their rows are
  judged in real time; ``clock=virtual`` runs);
- a running primary process on hugepages (``dpdk-proc-info``);
- the driver installed (``make install``): ``dpdk-testpmd`` with
  ``net_mlx5_tm`` and no ``-d``, ``pkg-config ... libdpdk-mlx5-tm``.

A command that runs fails its case on a non-zero exit status, a timeout,
or, for an interactive testpmd, a session line that testpmd answers with
an error ("Bad arguments", "(error)", "Please ...", "failed",
"Invalid", "not started", "not stopped", "already started").

How they run: in a scratch directory (mode 700, so that EAL accepts
``-d`` below it: test/private_dir.py's suite_private_dir(), in BUILD_DIR,
else $XDG_RUNTIME_DIR, else ~/.cache/mlx5-tm; with none free of
world-writable ancestors each command that would run is a skip, counted
skipped) that looks like the source tree after
``make build``: a link to each top-level entry of SOURCE_DIR, ``build``
a link to BUILD_DIR; ``HOME`` a private directory in it (``~/mlx5-tm``
of the NIC guide lands there). Each DPDK program gets a
``--file-prefix`` of its own, given first, and its EAL runtime directory
is removed after it. The scratch directory is removed at the end.
Prints "N passed, N failed" (cases); ``--list`` prints the commands and
what would be done with each, and runs nothing.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

import pexpect

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
# pylint: disable=wrong-import-position
from cases import Cases  # noqa: E402
from eal_runtime import remove_runtime_dir  # noqa: E402
from private_dir import NoPrivateDir, suite_private_dir  # noqa: E402

TIMEOUT = 90          # s, one command
SESSION_TIMEOUT = 30  # s, one testpmd session line
PROMPT = "testpmd> "
SHELL_WORDS = ("make", "sudo", "cd")
TREE_PATHS = ("build/", "scripts/", "test/", "./")
CMD_LANGS = ("console", "shell", "sh", "bash")
# Programs that start EAL, and which take --file-prefix first.
DPDK_PROGRAMS = ("dpdk-testpmd", "dpdk-tm-pace", "dpdk-mlx5-tm-check",
                 "dpdk-proc-info", "mlx5-tm-bench")
SESSION_ERRORS = ("Bad arguments", "(error)", "Please ", "failed",
                  "Invalid", "not started", "not stopped",
                  "already started")


class Command:
    """One command of a document, with its testpmd session if any."""

    def __init__(self, doc, line, text):
        self.doc = doc
        self.line = line
        self.text = text
        self.session = []

    def name(self):
        short = " ".join(self.text.split())
        if len(short) > 70:
            short = short[:67] + "..."
        return "%s:%d: %s" % (self.doc, self.line, short)

    def interactive(self):
        words = self.text.split()
        return "dpdk-testpmd" in words[0:2] and "-i" in words


def is_command_word(word):
    return (word in ("$", "#") or word in SHELL_WORDS or
            word.startswith(TREE_PATHS) or shutil.which(word) is not None)


def commands_of_block(doc, first_line, lines):
    """The commands and session lines of a block: ([Command], [session])."""
    prompted = any(re.match(r"^[$#] ", l) for l in lines)
    cmds, session = [], []
    cur, cur_line = None, 0
    for k, raw in enumerate(lines):
        line = raw.rstrip()
        if cur is not None:
            cur += "\n" + line
            if not line.endswith("\\"):
                cmds.append(Command(doc, cur_line, cur))
                cur = None
            continue
        if line.startswith(PROMPT):
            session.append(line[len(PROMPT):].strip())
            continue
        if prompted:
            m = re.match(r"^[$#] (.*)$", line)
            if m is None:
                continue   # output of the command above
            line = m.group(1)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not prompted and not is_command_word(line.split()[0]):
            continue   # output, or an option list under a synopsis
        if line.endswith("\\"):
            cur, cur_line = line, first_line + k
        else:
            cmds.append(Command(doc, first_line + k, line))
    if cur is not None:
        cmds.append(Command(doc, cur_line, cur))
    return cmds, session


def markdown_blocks(path):
    """(first line, lines, section) of README's fenced command blocks."""
    out, lines = [], open(path).read().split("\n")
    section, i = 0, 0
    while i < len(lines):
        if lines[i].startswith("#"):
            section += 1
        m = re.match(r"^```\s*(\S*)\s*$", lines[i])
        if m is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if m.group(1) != "text":
            out.append((i + 2, lines[i + 1:j], section))
        i = j + 1
    return out


def rst_blocks(path):
    """(first line, lines, section) of a guide's literal blocks that hold
    commands."""
    out, lines = [], open(path).read().split("\n")
    section, i = 0, 0
    while i < len(lines):
        line = lines[i]
        if (i + 1 < len(lines) and line.strip() and
                re.match(r"^([=~^\-])\1{3,}$", lines[i + 1]) and
                len(lines[i + 1]) >= len(line.rstrip())):
            section += 1
        m = re.match(r"^(\s*)\.\. code-block::\s*(\S*)", line)
        literal = line.rstrip().endswith("::") and \
            not line.lstrip().startswith("..")
        if m is None and not literal:
            i += 1
            continue
        lang = m.group(2) if m else ""
        base = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and m is not None and \
                lines[j].lstrip().startswith(":"):
            j += 1   # a code-block option
            while j < len(lines) and not lines[j].strip():
                j += 1
        if j >= len(lines):
            break
        indent = len(lines[j]) - len(lines[j].lstrip())
        if indent <= base:
            i += 1
            continue
        start, block = j, []
        while j < len(lines) and (not lines[j].strip() or
                                  len(lines[j]) - len(lines[j].lstrip())
                                  >= indent):
            block.append(lines[j][indent:])
            j += 1
        while block and not block[-1].strip():
            block.pop()
        words = block[0].split() if block else []
        if block and (lang in CMD_LANGS or block[0].startswith(PROMPT) or
                      (words and is_command_word(words[0]))):
            out.append((start + 1, block, section))
        i = j
    return out


def collect(src):
    """Every command of README.md and the guides, in document order."""
    docs = [("README.md", markdown_blocks(os.path.join(src, "README.md")))]
    guides = os.path.join(src, "doc", "guides")
    for d in (guides, os.path.join(guides, "nics")):
        for f in sorted(os.listdir(d)):
            if f.endswith(".rst"):
                p = os.path.join(d, f)
                docs.append((os.path.relpath(p, src), rst_blocks(p)))
    out = []
    for doc, blocks in docs:
        last = {}   # section -> its last interactive testpmd
        for first, lines, section in blocks:
            cmds, session = commands_of_block(doc, first, lines)
            for c in cmds:
                if c.interactive():
                    last[section] = c
            if session and section in last:
                last[section].session += session
            out += cmds
    return out


def skip_reason(cmd, previous_skipped):
    """Why @cmd does not run, or None."""
    t = cmd.text
    words = t.replace("\\\n", " ").split()
    prog = os.path.basename(words[0]) if words else ""
    if re.search(r"<[a-z_ -]+>|\[[a-z -]+\]|\bBUILD_DIR\b", t):
        return "a template (placeholders), not a command"
    if re.search(r"\bdev=|(^|\s)-a\s|\b[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.",
                 t):
        return "needs a real ConnectX NIC"
    if prog == "sudo" or re.search(
            r"\bmake (install|uninstall)\b|\bapt(-get)? install\b|"
            r"install_check\.sh", t):
        return "changes the system (root install)"
    if re.search(r"\bmake (test|bench|fuzz|deb|test-tsan|coverage)\b",
                 t) or \
            prog == "valgrind" or "scripts/bench.sh" in t:
        return "minutes of runtime"
    if re.search(r"\bmake demo\b", t):
        return ("real-time run whose verdict depends on the machine's "
                "load (run it by hand; scripts/demo.sh)")
    if prog == "dpdk-tm-pace" and "emu=" in t and "clock=virtual" not in t:
        return ("dpdk-tm-pace in real time: its verdict depends on the "
                "machine's load")
    if prog == "dpdk-proc-info":
        return "needs a running primary process on hugepages"
    if (prog == "dpdk-testpmd" and "net_mlx5_tm" in t and
            " -d " not in " %s " % " ".join(words)) or \
            re.search(r"pkg-config .*libdpdk-mlx5-tm", t):
        return "needs the driver installed (make install)"
    if previous_skipped and re.search(
            r"\b(cg|ff)\.json\b|callgrind\.out\.|results\.json", t):
        return "reads what the skipped command before it wrote"
    return None


def with_prefix(text, prefix):
    """@text with --file-prefix @prefix after each DPDK program that has
    none."""
    if "--file-prefix" in text:
        return text
    for p in DPDK_PROGRAMS:
        text = re.sub(r"(^|\s)(\S*%s)(?=\s)" % re.escape(p),
                      r"\1\2 --file-prefix=%s" % prefix, text, count=1)
    return text


def scratch_tree(build, src):
    """A private directory with the tree's links and a private HOME."""
    root = suite_private_dir(build, "doctest.")
    tree = os.path.join(root, "tree")
    os.mkdir(tree)
    for name in os.listdir(src):
        if name in ("build", ".git") or name.startswith("build"):
            continue
        os.symlink(os.path.join(src, name), os.path.join(tree, name))
    os.symlink(build, os.path.join(tree, "build"))
    home = os.path.join(root, "home")
    os.mkdir(home, 0o700)
    return root, tree, home


def run_plain(cmd, text, tree, env):
    proc = subprocess.run(["bash", "-c", text], cwd=tree, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=TIMEOUT)
    return proc.returncode, proc.stdout + proc.stderr


def run_session(cmd, text, tree, env):
    """An interactive testpmd: its session typed in, then quit."""
    child = pexpect.spawn("bash", ["-c", text], cwd=tree, env=env,
                          encoding="utf-8", timeout=TIMEOUT)
    log, bad = [], []
    try:
        child.expect_exact(PROMPT)
        log.append(child.before)
        for line in cmd.session + ["quit"]:
            child.sendline(line)
            if line == "quit":
                child.expect(pexpect.EOF, timeout=SESSION_TIMEOUT)
            else:
                child.expect_exact(PROMPT, timeout=SESSION_TIMEOUT)
            answer = child.before
            log.append("testpmd> %s\n%s" % (line, answer))
            if any(e in answer for e in SESSION_ERRORS):
                bad.append("%s: %s" % (line, answer.strip()[-200:]))
            elif (line.startswith("show port tm node stats") and
                  "Bytes" not in answer and "Pkts" not in answer):
                bad.append("%s: no counter printed (a node added with "
                           "stats_mask 0?): %s" % (line,
                                                   answer.strip()[-200:]))
    except pexpect.ExceptionPexpect as e:
        bad.append("session: %s" % type(e).__name__)
    finally:
        child.close(force=True)
    rc = child.exitstatus if child.exitstatus is not None else 128
    if bad:
        rc = rc or 1
    return rc, "".join(log)[-2000:] + ("\n" + "\n".join(bad) if bad else "")


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    listing = "--list" in sys.argv[1:]
    if len(args) != 2:
        print(__doc__)
        print("0 passed, 1 failed")
        return 1
    build, src = os.path.abspath(args[0]), os.path.abspath(args[1])
    cases = Cases()
    cmds = collect(src)
    if listing:
        skipped = False
        for c in cmds:
            why = skip_reason(c, skipped)
            skipped = why is not None
            print("%s  %s%s" % ("SKIP" if why else "RUN ", c.name(),
                                " (%s)" % why if why else ""))
            for s in c.session:
                print("        testpmd> %s" % s)
        return 0
    try:
        root, tree, home = scratch_tree(build, src)
    except NoPrivateDir as e:
        # Each command that would run cannot: a skip, never a pass.
        skipped = False
        for c in cmds:
            why = skip_reason(c, skipped)
            skipped = why is not None
            if not why:
                cases.skip(c.name(), str(e))
        return cases.report()
    env = dict(os.environ, HOME=home)
    n_skipped = 0
    try:
        skipped = False
        for n, c in enumerate(cmds):
            why = skip_reason(c, skipped)
            skipped = why is not None
            if why:
                n_skipped += 1
                print("SKIP %s: %s" % (c.name(), why))
                continue
            prefix = "doctest%d_%d" % (os.getpid(), n)
            text = with_prefix(c.text, prefix)
            try:
                if c.interactive():
                    rc, out = run_session(c, text, tree, env)
                else:
                    rc, out = run_plain(c, text, tree, env)
            except subprocess.TimeoutExpired:
                rc, out = 124, "timed out after %d s" % TIMEOUT
            remove_runtime_dir(prefix)
            cases.check(c.name(), rc == 0,
                        "exit %d\n%s" % (rc, out[-1500:]))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("%d commands skipped (not counted)" % n_skipped)
    return cases.report()


if __name__ == "__main__":
    sys.exit(main())
