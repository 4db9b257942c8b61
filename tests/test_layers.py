"""The package's layers: every import goes to the module's own layer or a lower one, and no module imports
itself back through others (no cycle). Read from the source with ``ast``, imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_bytecount"
# lowest first; a module may import from its own layer and the ones before it
LAYERS = ["version", "files", "wording", "classfile", "counting", "jvm", "regression", "plugin", "cli_trees", "cli_git", "cli"]
# inside counting, lowest first: which methods a pattern names, the counts format (what each counter
# stands for), where the counters go, what code goes there, how calls link, and the pipeline of a class
COUNTING = ["options", "targets", "counts", "flow", "instr", "links", "pipeline"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set:
    """The package's modules that ``path`` imports (absolute dotted names)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:  # "from . import cache" names a module
                candidate = f"{target}.{alias.name}"
                out.add(candidate if module_path(candidate) else target)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pytest_bytecount"):
            out.add(node.module)
    return out


def module_path(name: str):
    rel = Path(*name.split("."))
    for candidate in (PACKAGE.parent / rel.with_suffix(".py"), PACKAGE.parent / rel / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def layer(name: str) -> int:
    """A module's layer; the package itself is the facade over all of them (its public functions)."""
    if name == "pytest_bytecount":
        return len(LAYERS)
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else -1


GRAPH = {module_name(p): imports(p) for p in PACKAGE.rglob("*.py") if p.name != "__main__.py"}


def test_every_module_belongs_to_a_layer():
    assert [m for m in GRAPH if m != "pytest_bytecount" and layer(m) < 0] == []


def test_imports_only_go_down_the_layers():
    """The package's root (the facade test code imports) is above every layer: no module imports it."""
    upward = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() for t in targets if layer(t) > layer(m))
    assert upward == []


def counting_layer(name: str) -> int:
    parts = name.split(".")
    return COUNTING.index(parts[2]) if len(parts) > 2 and parts[2] in COUNTING else -1


def test_counting_is_grouped_and_its_groups_import_only_downwards():
    counting = [m for m in GRAPH if m.startswith("pytest_bytecount.counting.")]
    assert [m for m in counting if counting_layer(m) < 0] == []
    upward = sorted(f"{m} imports {t}" for m in counting for t in GRAPH[m]
                    if t.startswith("pytest_bytecount.counting") and counting_layer(t) > counting_layer(m))
    assert upward == []


def test_each_group_of_counting_says_what_it_owns_in_one_line():
    for group in COUNTING[2:]:  # options and targets are single modules
        doc = ast.get_docstring(ast.parse((PACKAGE / "counting" / group / "__init__.py").read_text()))
        assert doc and "\n" not in doc.strip(), group


def test_no_module_imports_itself_back_through_others():
    cycles = []
    for start in GRAPH:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in GRAPH.get(node, ()):
                if nxt == start:
                    cycles.append(" -> ".join(path + [start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    assert cycles == []


MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def test_modules_and_functions_stay_small_enough_to_read():
    """No module over 500 lines and no function over 80 (a reader holds one in their head)."""
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        name = path.relative_to(PACKAGE.parent)
        if len(text.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}:{node.lineno} {node.name}: {size} lines")
    assert too_long == []


def third_party_imports(path: Path) -> set:
    """The top-level names of what ``path`` imports from outside the package (imports inside functions too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


def importers_of(*names: str) -> list:
    return sorted(str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")
                  if third_party_imports(p) & set(names))


def test_jpype_is_imported_only_under_jvm_and_where_the_plugin_takes_over_jpype_startjvm():
    """One door to the JVM: the layers above speak of classes, loaders and Java errors through jvm/ (jvm.classes
    for a class by name, the running class path, whether an exception is a Java one)."""
    outside = [p for p in importers_of("jpype", "_jpype")
               if not p.startswith("pytest_bytecount/jvm/") and p != "pytest_bytecount/plugin/app_start.py"]
    assert outside == []


def test_pytest_is_imported_only_by_the_plugin_and_the_package_facade():
    """The verdict rules, the counting and the JVM do not know pytest: the plugin applies them to pytest's reports."""
    outside = [p for p in importers_of("pytest", "_pytest", "pluggy")
               if not p.startswith("pytest_bytecount/plugin/") and p != "pytest_bytecount/__init__.py"]
    assert outside == []


def _state_kept_by(path: Path) -> list:
    """What ``path`` keeps for the process outside :mod:`pytest_bytecount.jvm.process`: module-level names bound
    to an empty container (filled later), ``global`` statements, and cached functions that make things in the
    JVM (they import JPype)."""
    out = []
    tree = ast.parse(path.read_text())
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        empty = isinstance(value, (ast.Dict, ast.List, ast.Set)) and not getattr(value, "keys", getattr(value, "elts", [1])) \
            or isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("dict", "list", "set") and not value.args
        if empty:
            out.append(f"line {node.lineno}: a module-level container")
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            out.append(f"line {node.lineno}: global {', '.join(node.names)}")
        if isinstance(node, ast.FunctionDef) and any("cache" in ast.unparse(d) for d in node.decorator_list) and \
                any(isinstance(n, (ast.Import, ast.ImportFrom)) and "jpype" in ast.unparse(n) for n in ast.walk(node)):
            out.append(f"line {node.lineno}: {node.name} caches what it made in the JVM")
    return out


def test_what_the_process_s_jvm_holds_is_kept_on_one_object(tmp_path):
    """A process's JVM starts once and never restarts; what the plugin makes in it once (the agent's
    Instrumentation, its Python implementations of Java interfaces, the Loader class, the deep set-up) lives on
    jvm.process's one object, so no other module of jvm/ keeps state of its own."""
    kept = {str(p.relative_to(PACKAGE.parent)): _state_kept_by(p) for p in sorted((PACKAGE / "jvm").glob("*.py"))
            if p.name != "process.py"}
    assert {p: k for p, k in kept.items() if k} == {}
    planted = tmp_path / "planted.py"
    planted.write_text("import functools\n_seen: dict = {}\n\n@functools.lru_cache(maxsize=None)\ndef made():\n"
                       "    import jpype\n    return jpype.JClass('java.lang.Object')\n")
    assert [k.split(":")[0] for k in _state_kept_by(planted)] == ["line 2", "line 5"]
