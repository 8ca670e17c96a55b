# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Base class of the test suites, in the shape of DTS's TestCase."""

import re

from .exception import VerifyFailure
from .testpmd import Testpmd

# rte_tm_error_type (lib/ethdev/rte_tm.h, DPDK 22.11).
TM_ERROR = {name: num for num, name in enumerate([
    "NONE", "UNSPECIFIED", "CAPABILITIES", "LEVEL_ID", "WRED_PROFILE",
    "WRED_PROFILE_GREEN", "WRED_PROFILE_YELLOW", "WRED_PROFILE_RED",
    "WRED_PROFILE_ID", "SHARED_WRED_CONTEXT_ID", "SHAPER_PROFILE",
    "SHAPER_PROFILE_COMMITTED_RATE", "SHAPER_PROFILE_COMMITTED_SIZE",
    "SHAPER_PROFILE_PEAK_RATE", "SHAPER_PROFILE_PEAK_SIZE",
    "SHAPER_PROFILE_PKT_ADJUST_LEN", "SHAPER_PROFILE_PACKET_MODE",
    "SHAPER_PROFILE_ID", "SHARED_SHAPER_ID", "NODE_PARENT_NODE_ID",
    "NODE_PRIORITY", "NODE_WEIGHT", "NODE_PARAMS",
    "NODE_PARAMS_SHAPER_PROFILE_ID", "NODE_PARAMS_SHARED_SHAPER_ID",
    "NODE_PARAMS_N_SHARED_SHAPERS", "NODE_PARAMS_WFQ_WEIGHT_MODE",
    "NODE_PARAMS_N_SP_PRIORITIES", "NODE_PARAMS_CMAN",
    "NODE_PARAMS_WRED_PROFILE_ID", "NODE_PARAMS_SHARED_WRED_CONTEXT_ID",
    "NODE_PARAMS_N_SHARED_WRED_CONTEXTS", "NODE_PARAMS_STATS", "NODE_ID",
])}
TM_ERROR_NAME = {v: k for k, v in TM_ERROR.items()}

# testpmd's print_err_msg(): "<type text>: [cause: 0x.., ]<message> (error N)"
TM_ERR_RE = re.compile(
    r"^(?P<type>[^\n]*?): (?:cause: (?:0x)?[0-9a-fA-F]+, )?(?P<msg>[^\n]*)"
    r" \(error (?P<code>-?\d+)\)[ \t]*$", re.M)

# What testpmd prints when a configuration command did not do its job.
FAIL_RE = re.compile(
    r"\(error -?\d+\)|\(error\)|Bad arguments|Command not found|"
    r"Ambiguous command|\b[Ff]ail(ed|s|ure)?\b|\b[Ii]nvalid\b|"
    r"\bError\b|\berror\b|Segmentation|ERROR:")

CAP_RE = re.compile(r"^(cap\.[\w.]+)\s+(\S+)\s*$", re.M)


class TmError:
    """One error answer of a tm command."""

    def __init__(self, m):
        self.type_text = m.group("type")
        self.message = m.group("msg")
        self.code = int(m.group("code"))

    @property
    def name(self):
        return TM_ERROR_NAME.get(self.code, str(self.code))

    def __repr__(self):
        return "%s (%d): %s" % (self.name, self.code, self.message)


def nonleaf_cmd(node, parent, level, profile=-1, weight=1, port=0):
    """testpmd's command adding non-leaf @node: priority 0, one priority
    below it, no statistics."""
    return ("add port tm nonleaf node %d %d %d 0 %d %d %d 1 0 0"
            % (port, node, parent, weight, level, profile))


def leaf_cmd(q, parent, level, profile=-1, weight=1, priority=0, port=0,
             stats=3):
    """testpmd's command adding leaf @q (Tx queue q): tail drop, no WRED,
    @stats statistics (3: packets and bytes)."""
    return ("add port tm leaf node %d %d %d %d %d %d %d 0 0xffffffff %d 0"
            % (port, q, parent, priority, weight, level, profile, stats))


def parse_caps(out):
    """{"cap.n_nodes_max": 4, ...} from a 'show port tm ... cap' answer
    (values printed in hex by testpmd, the masks, are read as hex)."""
    caps = {}
    for key, val in CAP_RE.findall(out):
        base = 16 if key.endswith("_mask") else 10
        try:
            caps[key] = int(val, base)
        except ValueError:
            caps[key] = val
    return caps


class TestCase:
    """A suite: set_up_all, then per case set_up / test_* / tear_down,
    then tear_down_all. Cases verify with self.verify()."""

    #: devargs every launch gets unless a case overrides them.
    default_profile = "cx6dx"

    def __init__(self, ctx):
        self.ctx = ctx
        self.pmds = []          # sessions open
        self.history = []       # every session of the current case
        self.notes = []         # remarks printed with the case's result
        self.pmd = None

    # Hooks (DTS names) ------------------------------------------------
    def set_up_all(self):
        pass

    def tear_down_all(self):
        pass

    def set_up(self):
        pass

    def tear_down(self):
        pass

    # Verification -----------------------------------------------------
    def note(self, text):
        """A remark shown with the case's result (e.g. a part of the case
        the machine cannot run)."""
        self.notes.append(text)

    def verify(self, cond, msg):
        if not cond:
            raise VerifyFailure(msg)

    # testpmd ----------------------------------------------------------
    def vdev(self, profile=None, **devargs):
        parts = ["net_mlx5_tm0", "emu=%s" % (profile or self.default_profile)]
        parts += ["%s=%s" % (k, v) for k, v in devargs.items()]
        return ",".join(parts)

    def launch(self, profile=None, txq=4, devargs=None, vdev=None,
               pmd_so="default", **kw):
        """Start testpmd with the PMD (or @vdev as given) and make it the
        case's current session."""
        if vdev is None:
            vdev = self.vdev(profile, **(devargs or {}))
        if pmd_so == "default":
            pmd_so = self.ctx.pmd_so()
        pmd = Testpmd(vdev, pmd_so=pmd_so, txq=txq, **kw)
        self.pmds.append(pmd)
        self.history.append(pmd)
        self.pmd = pmd
        return pmd

    def close_all(self):
        """Quit every testpmd of the case; a crash at quit is a failure."""
        problems = []
        for pmd in self.pmds:
            status, sig = pmd.quit()
            if sig is not None or status not in (0, None):
                problems.append((pmd, "testpmd quit with %s" % pmd.exit_text()))
            elif status is None and sig is None and pmd.alive():
                pmd.kill()
                problems.append((pmd, "testpmd did not quit"))
        self.pmds = []
        self.pmd = None
        return problems

    def send(self, cmd, pmd=None, timeout=None):
        return (pmd or self.pmd).send(cmd, timeout=timeout)

    def ok(self, cmd, pmd=None, timeout=None):
        """Send a command that must succeed (no error of any kind)."""
        out = self.send(cmd, pmd, timeout)
        m = FAIL_RE.search(out)
        self.verify(m is None, "%r was refused: %s" % (cmd, out.strip()))
        return out

    def tm_error(self, cmd, pmd=None):
        """Send a tm command; its TmError, or None when it succeeded."""
        out = self.send(cmd, pmd)
        m = TM_ERR_RE.search(out)
        return TmError(m) if m else None

    def refused(self, cmd, etype=None, msg=None, pmd=None):
        """Send a tm command that must be refused with rte_tm_error type
        @etype (a name of TM_ERROR, or a list of them) and a message that
        matches the regular expression @msg (case-insensitive)."""
        out = self.send(cmd, pmd)
        m = TM_ERR_RE.search(out)
        self.verify(m is not None, "%r was accepted: %r" % (cmd, out.strip()))
        err = TmError(m)
        if etype is not None:
            names = [etype] if isinstance(etype, str) else list(etype)
            self.verify(err.name in names,
                        "%r refused with %r, expected type %s"
                        % (cmd, err, "/".join(names)))
        self.verify(err.message and err.message != "(no stated reason)",
                    "%r refused without a message: %r" % (cmd, err))
        if msg is not None:
            self.verify(re.search(msg, err.message, re.I) is not None,
                        "%r refused with message %r, expected /%s/"
                        % (cmd, err.message, msg))
        self.verify((pmd or self.pmd).alive(), "testpmd died after %r" % cmd)
        return err

    def port_cap(self, port=0):
        out = self.send("show port tm cap %d" % port)
        caps = parse_caps(out)
        self.verify(caps, "no capabilities in %r" % out.strip())
        return caps

    def level_cap(self, level, port=0):
        out = self.send("show port tm level cap %d %d" % (port, level))
        caps = parse_caps(out)
        self.verify(caps, "no level %d capabilities in %r"
                    % (level, out.strip()))
        return caps

    def node_cap(self, node, port=0):
        out = self.send("show port tm node cap %d %d" % (port, node))
        caps = parse_caps(out)
        self.verify(caps, "no node %d capabilities in %r"
                    % (node, out.strip()))
        return caps

    # Hierarchy helpers -------------------------------------------------
    def add_profile(self, pid, rate, size=0, pkt_mode=0, cmit_rate=0,
                    cmit_size=0, adjust=0, port=0):
        return self.ok("add port tm node shaper profile %d %d %d %d %d %d %d %d"
                       % (port, pid, cmit_rate, cmit_size, rate, size,
                          adjust, pkt_mode))

    def add_root(self, node=1000, level=0, port=0, profile=-1):
        return self.ok(nonleaf_cmd(node, -1, level, profile, port=port))

    def add_nonleaf(self, node, parent, level, port=0, profile=-1,
                    weight=1):
        return self.ok(nonleaf_cmd(node, parent, level, profile, weight,
                                   port))

    def add_leaf(self, q, parent, level, profile, port=0, stats=3,
                 weight=1):
        """Leaf node @q (Tx queue q) with shaper profile @profile."""
        return self.ok(leaf_cmd(q, parent, level, profile, weight,
                                port=port, stats=stats))

    def two_level(self, profiles, port=0, root=1000):
        """Root (level 0) and one leaf per queue (level 1); @profiles maps
        queue -> shaper profile id (-1 for none)."""
        self.add_root(root, 0, port=port)
        for q, pid in enumerate(profiles):
            self.add_leaf(q, root, 1, pid, port=port)

    def commit(self, port=0, clean="yes"):
        return self.ok("port tm hierarchy commit %d %s" % (port, clean))
