"""Calling-context trees of exact counts (docs/trees.md): where a target's work went, path by path.

A tree belongs to one target of one test. Its root is the target's window; each node is a method reached along
one call path from it, and carries the exact counts of its invocations there:

- ``self``: the instructions it ran itself (deep counts: every method, the JDK's included);
- ``calls``: its invocations along that path;
- ``copied``: the elements native copies moved from it (``System.arraycopy``, an array's ``clone()``).

Recursion folds as a calling-context tree folds it: a method already on the path is that node again, so a path
never holds a method twice, and a recursion of any depth makes as many nodes as one level of it. The nodes'
``self`` values sum to the windows' deep total exactly; a node's total is its ``self`` and its descendants'.

A tree is kept as ``{path: [self, calls, copied]}``, a path being a tuple of method ids from the target down (the
empty path is the window itself, which holds what ran in it before the target's own node began: the part of a
target constructor before its ``super(...)`` call). That shape makes sums and differences of trees a matter of
adding values path by path, and is the collapsed-stacks format flame-graph tools read.
"""

from __future__ import annotations

from typing import Iterable, Optional

OTHER = "(other)"  # the node that stands for a parent's children below the kept share (their sums exact)
FIELDS = ("self", "calls", "copied")


def fold(path: tuple, method: str) -> tuple:
    """``path`` extended by a call of ``method``: back to ``method``'s own node when it is on the path already."""
    if method in path:
        return path[:path.index(method) + 1]
    return path + (method,)


class CallTree:
    """One target's calling-context tree: ``nodes`` maps each path to ``[self, calls, copied]``."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: Optional[dict] = None):
        self.nodes: dict = {} if nodes is None else nodes

    def __eq__(self, other) -> bool:
        return isinstance(other, CallTree) and self.nodes == other.nodes

    def __repr__(self) -> str:
        return f"CallTree({len(self.nodes)} nodes, total {self.total():,})"

    def __bool__(self) -> bool:
        return bool(self.nodes)

    def add(self, path: tuple, own: int, calls: int = 0, copied: int = 0) -> None:
        v = self.nodes.get(path)
        if v is None:
            self.nodes[path] = [own, calls, copied]
        else:
            v[0] += own
            v[1] += calls
            v[2] += copied

    def total(self) -> int:
        """Every instruction of the tree: the sum of the nodes' own."""
        return sum(v[0] for v in self.nodes.values())

    def copied(self) -> int:
        return sum(v[2] for v in self.nodes.values())

    def totals(self) -> dict:
        """``{path: its node's total (own and every descendant's)}``, for every path and every prefix of one."""
        out: dict = {}
        for path, v in self.nodes.items():
            for k in range(len(path) + 1):
                prefix = path[:k]
                out[prefix] = out.get(prefix, 0) + v[0]
        return out

    def merged(self, other: "CallTree", sign: int = 1) -> "CallTree":
        """This tree plus ``sign`` times ``other``, path by path; paths whose values all end at 0 go."""
        out = {p: list(v) for p, v in self.nodes.items()}
        for p, v in other.nodes.items():
            mine = out.get(p)
            if mine is None:
                out[p] = [sign * x for x in v]
            else:
                for i in range(3):
                    mine[i] += sign * v[i]
        return CallTree({p: v for p, v in out.items() if any(v)})

    def bounded(self, share: float = 0.001, max_nodes: int = 2000) -> "CallTree":
        """The tree with the paths whose total is below ``share`` of the whole (and past the ``max_nodes``
        largest) merged into one :data:`OTHER` node per parent: every sum stays exact. The target and the methods
        it calls itself are always kept (as many as its code has call sites at most), so that the work under each
        of its call sites is exact on both sides of a comparison."""
        totals = self.totals()
        whole = totals.get((), 0)
        ranked = sorted((t for p, t in totals.items() if p), reverse=True)
        floor = max(share * whole, 1)
        if len(ranked) > max_nodes:
            floor = max(floor, ranked[max_nodes - 1])
        kept = {p for p, t in totals.items() if len(p) <= 2 or t >= floor}
        out = CallTree()
        for path, (own, calls, copied) in self.nodes.items():
            k = len(path)
            while path[:k] not in kept:
                k -= 1
            if k == len(path):
                out.add(path, own, calls, copied)
            else:  # its work joins its kept ancestor's (other) node; calls stay with the methods they name
                out.add(path[:k] + (OTHER,), own, 0, copied)
        return out

    # --- JSON: a table of frames and one row per node ------------------------------------------------------
    def to_dict(self) -> dict:
        frames: dict = {}
        rows = []
        for path in sorted(self.nodes):
            own, calls, copied = self.nodes[path]
            rows.append([[frames.setdefault(m, len(frames)) for m in path], own, calls, copied])
        return {"frames": list(frames), "nodes": rows}

    @classmethod
    def from_dict(cls, data: dict) -> "CallTree":
        frames = data["frames"]
        return cls({tuple(frames[i] for i in row[0]): [int(row[1]), int(row[2]), int(row[3])]
                    for row in data["nodes"]})

    # --- collapsed stacks ----------------------------------------------------------------------------------
    def collapsed(self, value: int = 0, root: Optional[str] = None) -> list:
        """The tree as collapsed stacks (``frame;frame;frame N``), one line per node with a value: ``value``
        picks own instructions (0), invocations (1) or copied elements (2). ``root`` names the window's own
        frame (its work before the target's node began), when it has any."""
        lines = []
        for path in sorted(self.nodes):
            n = self.nodes[path][value]
            if not n:
                continue
            frames = path if path else (root or "(window)",)
            lines.append(";".join(f.replace(";", ",").replace(" ", "_") for f in frames) + f" {n}")
        return lines


def short_frame(method: str) -> str:
    """A frame as people read it: ``java.util.ArrayList#indexOf(Ljava/lang/Object;)I`` -> ``ArrayList.indexOf``."""
    if method == OTHER:
        return method
    cls, _, rest = method.partition("#")
    name = rest.split("(", 1)[0]
    return f"{cls.rsplit('.', 1)[-1]}.{name}" if rest else method


def _folded_like(tree: CallTree, other: CallTree) -> CallTree:
    """``tree`` with each path that ``other`` lacks folded into its parent's :data:`OTHER` node, as
    :meth:`CallTree.bounded` folds it, where ``other`` has that OTHER node and it is as large as the path's total
    (so the path may be hidden in it); a path larger than that is new work, not a path below the kept share."""
    known = {path[:k] for path in other.nodes for k in range(len(path) + 1)}
    totals = tree.totals()
    out = CallTree()
    for path, (own, calls, copied) in tree.nodes.items():
        cut = next((k for k in range(1, len(path) + 1) if path[:k] not in known), None)
        hidden = path[:cut - 1] + (OTHER,) if cut is not None else None
        if hidden is not None and hidden in other.nodes and totals[path[:cut]] <= other.nodes[hidden][0]:
            out.add(hidden, own, 0, copied)
        else:
            out.add(path, own, calls, copied)
    return out


def aligned(now: CallTree, before: CallTree) -> tuple:
    """The two trees with the small paths one of them folded into a parent's OTHER node folded the same way in the
    other, so that a path holds the same part of the work on both sides: a call path that fell below the kept share
    on one side shows no change of its own, and OTHER's change is the change of what it stands for on both."""
    b = _folded_like(before, now)
    return _folded_like(now, b), b


def changed_paths(now: CallTree, before: CallTree, limit: int = 5, rises_first: Optional[bool] = None) -> list:
    """The paths whose total changed most, as ``(path, before, now)``, most change first (the rises first with
    ``rises_first``, the falls first with False): for each path, the deepest one that explains its change (a node
    whose change is not mostly one child's). The trees are :func:`aligned` first; an OTHER node is never listed (its
    change is that of several small paths), though it counts in its parent's."""
    now, before = aligned(now, before)
    tn, tb = now.totals(), before.totals()
    delta = {p: tn.get(p, 0) - tb.get(p, 0) for p in set(tn) | set(tb) if p}
    children: dict = {}
    for p in delta:
        children.setdefault(p[:-1], []).append(p)
    picked = []
    # a path is shown when its change is not mostly carried by one child: the child then explains it better
    for p, d in delta.items():
        if d == 0 or p[-1] == OTHER:
            continue
        kids = children.get(p, [])
        best = max((delta[k] for k in kids if (delta[k] > 0) == (d > 0)), key=abs, default=0)
        if abs(best) * 2 > abs(d):
            continue
        picked.append((p, tb.get(p, 0), tn.get(p, 0)))
    first = (lambda x: 0) if rises_first is None else (lambda x: (x[2] > x[1]) != rises_first)
    picked.sort(key=lambda x: (first(x), -abs(x[2] - x[1]), x[0]))
    return picked[:limit]


def render_path(path: Iterable[str], limit: int = 6) -> str:
    """``A.m -> B.n -> C.o``; a long path keeps its first frames and its leaf."""
    frames = [short_frame(m) for m in path]
    if len(frames) > limit:
        frames = frames[:limit - 2] + ["..."] + frames[-1:]
    return " -> ".join(frames)


def render_tree(tree: CallTree, share: float = 0.01, width: int = 100) -> list:
    """The tree as indented lines, largest child first: each node's total, own instructions and invocations. Nodes
    below ``share`` of the whole are summed into one line per parent."""
    totals = tree.totals()
    whole = totals.get((), 0) or 1
    kids: dict = {}
    for p in totals:
        if p:
            kids.setdefault(p[:-1], []).append(p)
    lines = [f"{'total':>14} {'own':>12} {'calls':>10}  path"]

    def walk(path: tuple, depth: int) -> None:
        v = tree.nodes.get(path, [0, 0, 0])
        if path:
            name = short_frame(path[-1])
            lines.append(f"{totals[path]:>14,} {v[0]:>12,} {v[1]:>10,}  {'  ' * (depth - 1)}{name}")
        small = 0
        for k in sorted(kids.get(path, []), key=lambda k: (-totals[k], k)):
            if totals[k] < share * whole:
                small += totals[k]
            else:
                walk(k, depth + 1)
        if small:
            lines.append(f"{small:>14,} {'':>12} {'':>10}  {'  ' * depth}(below {share:.0%} each)")

    walk((), 0)
    return lines


def render_trees(counts: dict) -> str:
    """``count --tree``'s text: each target's tree (``deep.tree`` of its counts)."""
    out = []
    for method, c in counts.items():
        data = (c.get("deep") or {}).get("tree")
        if data is None:
            continue
        tree = CallTree.from_dict(data)
        out.append(f"{method}: calling-context tree, {tree.total():,} instructions in {len(tree.nodes):,} nodes")
        out += render_tree(tree)
        out.append("")
    return "\n".join(out) + ("\n" if out else "")
