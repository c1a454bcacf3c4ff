#!/usr/bin/env python3
"""The import graph of one Rust crate, file by file: import circles and upward imports.

Usage: python3 scripts/layers.py CRATE [--layers FILE] [--check] [--max-circle N]
                                 [--max-back N] [--verbose] [--rule] [--dot]
                                 [--public-only LAYER]... [--allow PATH]...

Counting rule (printed by --rule and --help):
  Nodes are the .rs files under CRATE/src. An edge A -> B (B != A; each pair
  counted once) exists when non-test code in A names a path that resolves to
  an item defined in B. Comments, string/char literals, `$crate::` paths and
  test code (an item under #[cfg(test)], #[cfg(doctest)] or
  #[cfg(all(.., test, ..))], braces included; #[cfg(any(test, ..))] is kept)
  are removed first. Paths counted: `use` declarations WITHOUT visibility
  (grouped trees, self, `as`, globs), and qualified paths anywhere in code
  whose first segment is crate, super, self or a name in scope (a child
  module, a top-level item, a `use` binding). A `use` with any visibility
  (pub, pub(crate), pub(super), pub(in ..)) is a re-export: it binds a name
  in its module but is no edge of its own file; neither is a `mod` line.
  Resolution walks the module tree made from the files (lib.rs is the root,
  foo.rs and foo/mod.rs are foo, foo/bar.rs is foo::bar, #[path] honoured):
  a segment naming a module steps into it (a path ending there is an edge
  to the module's file); one naming an item defined at the top level of the
  module's file ends at that file (so Type::method, Enum::Variant); one
  naming a `use` binding of the module is followed to the file defining the
  item (a facade is seen through); failing those, one written inside a
  top-level macro invocation of the module's file (an item the macro
  makes) ends at that file. A #[macro_export] macro is at
  crate::name and lives in its file; an inline `mod m { .. }` belongs to its
  file (anything under it resolves there; its own code sees its own uses,
  and its `super` is the file's module); a glob `use x::*` is one edge to
  the file of x. Paths into other crates are ignored; crate paths that do
  not resolve are counted as unresolved (listed with --verbose).
  Layer table (TOML, bottom first: [[layer]] name = "..", paths = [..], each
  a file or a folder prefix ending in "/", relative to src/): a file is in
  the layer of its longest matching entry, and must match exactly one. A
  back edge runs from layer i to layer j > i. --check exits 1 when a circle
  (strongly connected component) has more than --max-circle files (3) or
  there are more than --max-back back edges (5); errors in the table or a
  missing table exit 2.
  Public-only layers (--public-only LAYER, repeatable): a path written in a
  file of such a layer that resolves into a file of another layer must land
  on a public item: one declared exactly `pub` (a module by its `mod` line,
  a #[macro_export] macro counts as pub; Type::method and Enum::Variant land
  on the type, and only the type is checked: method visibility is out of
  scope) whose module is public (the crate root, a `pub mod` of a public
  module, or a module a `pub use` of a public module re-exports or
  glob-imports), or that a `pub use` of a public module re-exports. Items of
  the files given by --allow PATH (relative to src/) are exempt. Each
  (file, item) pair that fails is one non-public import; --check exits 1 on
  any.
"""
import argparse
import bisect
import re
import signal
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

RULE = " ".join(__doc__.split("Counting rule (printed by --rule and --help):")[1].split())
IDENT = r"[A-Za-z_]\w*"
ITEM_RE = re.compile(r"(?<![\w'*$])(struct|enum|union|trait|fn|type|const|static|mod)\s+(" + IDENT + r")")
MACRO_CALL = re.compile(r"(?<![\w$])(" + IDENT + r")\s*!\s*[({\[]")
MACRO_RE = re.compile(r"macro_rules!\s*(" + IDENT + r")")
EXPORT_RE = re.compile(r"#\s*\[\s*macro_export\s*\]\s*(?:#\s*\[[^\]]*\]\s*)*macro_rules!\s*(" + IDENT + r")")
USE_RE = re.compile(r"(?<![\w$])(?:(pub)\s*(?:\([^)]*\))?\s*)?use\s+(?=[:A-Za-z_{])")
PATH_RE = re.compile(r"(?<![\w$])(?:::\s*)?" + IDENT + r"(?:\s*::\s*" + IDENT + r")+")
TEST_RE = re.compile(r"#\s*\[\s*cfg\s*\(\s*(?:test|doctest|all\s*\([^()]*\b(?:test|doctest)\b[^()]*\))"
                     r"\s*\)\s*\]")
ITEM_START = re.compile(r"\s*(?:pub\s*(?:\([^)]*\))?\s*)?(?:(?:async|unsafe|const|extern|default)\s+)*"
                        r"(?:fn|struct|enum|union|trait|type|const|static|mod|impl|use|macro_rules!)\b")
PATH_ATTR = re.compile(r'#\s*\[\s*path\s*=\s*"([^"]+)"\s*\]\s*(?:pub\s*(?:\([^)]*\))?\s*)?'
                       r"mod\s+(" + IDENT + r")\s*;")
LEXEME = re.compile(r'/\*|//[^\n]*|(?<!\w)[bc]?r(#*)".*?"\1|(?<!\w)[bc]?"(?:\\.|[^"\\])*"'
                    r"|(?<!\w)b?'(?:\\.[^']*|[^\\'])'", re.S)
KEYWORDS = {"fn", "const", "static", "mod", "type", "struct", "enum", "trait", "unsafe", "async", "extern", "_"}
OPEN, CLOSE = "([{", ")]}"


def fail(message):
    """Reports a usage or configuration error and exits 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def blank(text):
    """Replaces every character but newlines with a space, keeping offsets."""
    return re.sub(r"[^\n]", " ", text)


def strip(src):
    """Blanks comments (nested block ones too), string, raw-string and char literals."""
    out, i = [], 0
    while (m := LEXEME.search(src, i)):
        end = m.end()
        depth = m.group() == "/*"
        while depth and end < len(src):
            step = src[end:end + 2]
            depth += (step == "/*") - (step == "*/")
            end += 2 if step in ("/*", "*/") else 1
        out += [src[i:m.start()], blank(src[m.start():end])]
        i = end
    return "".join(out + [src[i:]])


def match_close(code, i):
    """Index of the bracket closing the one at code[i] (any of ( [ {)."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] in OPEN:
            depth += 1
        elif code[j] in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def item_end(code, i):
    """Index just past the item, field or statement that starts at i (attributes first)."""
    while (m := re.compile(r"\s*#\s*!?\s*\[").match(code, i)):
        i = match_close(code, m.end() - 1) + 1
    is_item, j = bool(ITEM_START.match(code, i)), i
    while j < len(code):
        c = code[j]
        if c == "{":
            return match_close(code, j) + 1
        if c in "([":
            j = match_close(code, j) + 1
            continue
        if c == ";":
            return j + 1
        if c in ")]}" or (c == "," and not is_item):
            return j
        j += 1
    return j


def drop_tests(code):
    """Blanks every item under a test-only cfg attribute, braces included."""
    done = 0
    for m in TEST_RE.finditer(code):
        if m.start() < done:
            continue
        done = item_end(code, m.end())
        code = code[:m.start()] + blank(code[m.start():done]) + code[done:]
    return code


def declared_visibility(code, start):
    """The visibility written before the item keyword at start: "pub", "pub(crate)", .. or "private"."""
    vis = re.search(r"(?<!\w)(?:pub\s*(?:\([^()]*\))?\s*)?(?:(?:async|unsafe|const|extern|default)\s+)*$",
                    code[max(0, start - 200):start])
    written = re.match(r"pub\s*(?:\([^()]*\))?", vis.group())
    return re.sub(r"\s*([()])\s*", r"\1", " ".join(written.group().split())) if written else "private"


def depths(code):
    """Bracket nesting depth at every offset of code."""
    out, d = [], 0
    for c in code:
        d -= c in CLOSE
        out.append(d)
        d += c in OPEN
    return out


def parse_tree(toks, i, prefix):
    """Parses one use tree at toks[i]; returns ([(segments, bound name)], next index)."""
    path, out = list(prefix), []
    while i < len(toks):
        t = toks[i]
        if t == "{":
            i += 1
            while i < len(toks) and toks[i] != "}":
                sub, i = parse_tree(toks, i, path)
                out += sub
                i += toks[i:i + 1] == [","]
            return out, i + 1
        if t == "*":
            return out + [(path, "*")], i + 1
        if t == "::":
            path, i = path or ["::"], i + 1
            continue
        path.append(t)
        i += 1
        if toks[i:i + 1] == ["::"]:
            i += 1
            continue
        if t == "self" and len(path) > 1:
            path.pop()
        name = path[-1]
        if toks[i:i + 1] == ["as"]:
            name, i = toks[i + 1], i + 2
        return out + [(path, None if name == "_" else name)], i
    return out, i


class Module:
    """A module: its file, its top-level items and its use bindings and globs."""

    def __init__(self, path, file, opaque=False):
        self.path, self.file, self.opaque = path, file, opaque
        self.items, self.bindings, self.globs, self.reexports = {}, {}, [], set()
        self.macro_made = set()  # names written in the file's top-level macro invocations
        self.declared = defaultdict(list)  # name -> visibility of each declaration ("pub", "pub(crate)", ..)
        self.pub_uses = []  # (use entry, is a glob) of every exactly-`pub` top-level use


class Crate:
    """The files of one crate's src, their module tree, and the resolver."""

    def __init__(self, src):
        self.files = sorted(p.relative_to(src).as_posix() for p in src.rglob("*.rs"))
        self.raw = {f: (src / f).read_text(encoding="utf-8") for f in self.files}
        self.code = {f: drop_tests(strip(self.raw[f])) for f in self.files}
        self.clean = dict(self.code)  # before scan_file blanks uses and visibility paths
        self.exported = set()  # names of #[macro_export] macros (at crate::name)
        self.modules, self.mod_of, self.uses, self.local = {}, {}, defaultdict(list), defaultdict(dict)
        self.inline = defaultdict(list)  # file -> [(start, end, module path)] of inline `mod m { .. }`
        self.build_tree()
        for f in self.files:
            self.scan_file(f)
        for f in self.files:
            self.scan_declarations(f)

    def build_tree(self):
        """Maps every file to its module path; honours #[path] on `mod` lines."""
        root = "lib.rs" if "lib.rs" in self.files else "main.rs"
        for f in self.files:
            parts = f[:-3].split("/")
            if parts[-1] == "mod" or f == root:
                parts = parts[:-1]
            self.mod_of[f] = tuple(parts)
        for f in self.files:
            for target, name in PATH_ATTR.findall(self.raw[f]):
                dest = (Path(f).parent / target).as_posix()
                if dest in self.mod_of:
                    self.mod_of[dest] = self.mod_of[f] + (name,)
        for f in self.files:
            self.modules[self.mod_of[f]] = Module(self.mod_of[f], f)

    def scan_file(self, f):
        """Records items, inline modules and use declarations of one file; blanks the uses."""
        code, mod = self.code[f], self.modules[self.mod_of[f]]
        depth = depths(code)
        for m in ITEM_RE.finditer(code):
            kw, name = m.groups()
            if depth[m.start()] == 0 and name not in KEYWORDS:
                mod.items[name] = f
                inner, brace = mod.path + (name,), re.compile(r"\s*\{").match(code, m.end())
                if kw == "mod" and brace and inner not in self.modules:
                    self.modules[inner] = Module(inner, f, opaque=True)
                    self.inline[f].append((brace.end(), match_close(code, brace.end() - 1), inner))
        for m in MACRO_RE.finditer(code):
            if depth[m.start()] == 0:
                mod.items[m.group(1)] = f
        for m in MACRO_CALL.finditer(code):
            if depth[m.start()] == 0 and m.group(1) != "macro_rules":
                mod.macro_made |= set(re.findall(IDENT, code[m.end() - 1:match_close(code, m.end() - 1)]))
        for name in EXPORT_RE.findall(code):
            self.modules.setdefault((), Module((), f)).items[name] = f
            self.exported.add(name)
        for m in reversed(list(USE_RE.finditer(code))):
            end = item_end(code, m.end())
            toks = re.findall(r"::|" + IDENT + r"|[{},*]", code[m.end():end])
            exact = re.sub(r"\s+", "", m.group()) == "pubuse"
            for segs, name in parse_tree(toks, 0, [])[0]:
                self.add_use(f, segs, name, bool(m.group(1)), depth[m.start()] == 0, m.start(), exact)
            code = code[:m.start()] + blank(code[m.start():end]) + code[end:]
        ignored = r"pub\s*\(\s*in\s[^)]*\)|\$crate(?:\s*::\s*\w+)*"  # visibility paths, $crate paths
        self.code[f] = re.sub(ignored, lambda x: blank(x.group()), code)

    def scan_declarations(self, f):
        """Records the visibility of every item declared at the top of a file or of its inline modules."""
        code, depth = self.clean[f], depths(self.clean[f])
        for m in ITEM_RE.finditer(code):
            scope, name = self.scope(f, m.start()), m.group(2)
            level = 0 if scope == self.mod_of[f] else 1
            if depth[m.start()] == level and name not in KEYWORDS:
                self.modules[scope].declared[name].append(declared_visibility(code, m.start()))
        local_macro = "a macro_rules macro without #[macro_export]"
        for m in MACRO_RE.finditer(code):
            if depth[m.start()] == 0 and m.group(1) not in self.exported:
                self.modules[self.mod_of[f]].declared[m.group(1)].append(local_macro)

    def scope(self, f, pos):
        """The module whose names code at offset pos of file f sees (an inline module's, if in one)."""
        return next((p for start, end, p in self.inline[f] if start <= pos < end), self.mod_of[f])

    def add_use(self, f, segs, name, public, top, pos, exact=False):
        """Files one use entry: a binding or glob of the module, and an import if private."""
        mod, entry = self.modules[self.mod_of[f]], (self.scope(f, pos), segs)
        if exact and top and name:
            mod.pub_uses.append((entry, name == "*"))
        if name == "*":
            (mod.globs if top else self.local[f].setdefault("*", [])).append(entry)
        elif name and top:
            mod.bindings[name] = entry
            mod.reexports |= {name} if public else set()
        elif name:
            self.local[f][name] = entry
        if not public:
            text = "::".join(segs) + ("::*" if name == "*" else "")
            self.uses[f].append((text, segs, pos))

    def walk(self, mod, segs, seen):
        """Walks segs from module mod: ('mod', path) | ('file', f, (module, item)) | ('ext',) | ('unres',)."""
        m = self.modules.get(mod)
        if m is None:
            return ("unres",)
        if not segs:
            return ("mod", mod)
        head, rest = segs[0], segs[1:]
        if head == "self":
            return self.walk(mod, rest, seen)
        if head == "super":
            return self.walk(mod[:-1], rest, seen) if mod else ("unres",)
        if m.opaque:
            return ("file", m.file, (mod, head))
        if mod + (head,) in self.modules:
            return self.walk(mod + (head,), rest, seen)
        if head in m.items:
            return ("file", m.items[head], (mod, head))
        if head in m.bindings:
            return self.follow(m.bindings[head], rest, seen)
        if head in m.macro_made:
            return ("file", m.file, (mod, head))
        return self.via_globs(m.globs, segs, seen) or ("unres",)

    def via_globs(self, globs, segs, seen):
        """The first resolution of segs through one of the glob imports, or None."""
        for glob in globs:
            found = self.follow(glob, segs, seen)
            if found[0] in ("file", "mod"):
                return found
        return None

    def follow(self, entry, rest, seen):
        """Follows a use binding or glob (declared in a module, as written) then rest."""
        if id(entry) in seen or len(seen) > 30:
            return ("unres",)
        decl, segs = entry
        return self.resolve(decl, segs + rest, seen | {id(entry)}, skip=entry)

    def resolve(self, mod, segs, seen=frozenset(), local=None, skip=None):
        """Resolves a path as written in module mod (with a file's local uses)."""
        head = segs[0]
        if head == "crate":
            return self.walk((), segs[1:], seen)
        if head in ("self", "super"):
            return self.walk(mod, segs, seen)
        m = self.modules[mod]
        if local and head in local and head != "*":
            return self.follow(local[head], segs[1:], seen)
        known = mod + (head,) in self.modules or head in m.items
        if known or (head in m.bindings and m.bindings[head] is not skip):
            return self.walk(mod, segs, seen)
        return self.via_globs(m.globs + (local or {}).get("*", []), segs, seen) or ("ext",)

    def target_file(self, found):
        """The file a resolution lands in, or None."""
        if found[0] == "mod":
            return self.modules[found[1]].file
        return found[1] if found[0] == "file" else None

    def resolved_paths(self, f):
        """Every path the rule counts in file f with its line and resolution: [(path, line, found)]."""
        lines = [0] + [i + 1 for i, c in enumerate(self.raw[f]) if c == "\n"]
        paths, out = list(self.uses[f]), []
        for m in PATH_RE.finditer(self.code[f]):
            text = re.sub(r"\s+", "", m.group())
            paths.append((text, text.split("::"), m.start()))
        for text, segs, pos in paths:
            if segs[0] not in ("", "::", "Self"):
                found = self.resolve(self.scope(f, pos), segs, local=self.local[f])
                out.append((text, bisect.bisect_right(lines, pos), found))
        return out

    def graph(self):
        """Edges {(A, B): [why]} and the unresolved paths [(file, line, path)]."""
        edges, unresolved = defaultdict(list), []
        for f in self.files:
            for text, line, found in self.resolved_paths(f):
                if found[0] == "unres":
                    unresolved.append((f, line, text))
                elif (b := self.target_file(found)) and b != f:
                    edges[(f, b)].append((text, line))
        return edges, unresolved

    @staticmethod
    def item_of(found):
        """The item a resolution lands on, as (module path, name); None for the crate root or none."""
        if found[0] == "mod":
            return (found[1][:-1], found[1][-1]) if found[1] else None
        return found[2] if found[0] == "file" else None

    def visibility(self, item):
        """How an item is declared: "pub", "pub(crate)", .., "private", or why it is not known."""
        mod, name = item
        if not mod and name in self.exported:
            return "pub"
        written = set(self.modules[mod].declared.get(name, []))
        if not written:
            made = name in self.modules[mod].macro_made
            return "made by a macro (its visibility is not read)" if made else "not declared where it resolves"
        return "pub" if written == {"pub"} else " or ".join(sorted(written - {"pub"}))

    def public_reach(self):
        """Modules whose pub items can be named from outside the crate, and items a `pub use` lifts there."""
        public, lifted, size = {()}, set(), None
        while size != (len(public), len(lifted)):
            size = (len(public), len(lifted))
            for path in list(public):
                for entry, glob in self.modules[path].pub_uses:
                    found = self.follow(entry, [], frozenset())
                    if glob and found[0] == "mod":
                        public.add(found[1])
                    elif not glob and (item := self.item_of(found)):
                        lifted.add(item)
            for path in self.modules:
                item = path and (path[:-1], path[-1])
                if item and (path[:-1] in public or item in lifted) and self.visibility(item) == "pub":
                    public.add(path)
        return public, lifted

    def why_not_public(self, item, public, lifted):
        """None if the item is public; otherwise the reason it is not."""
        mod, name = item
        vis = self.visibility(item)
        if vis != "pub":
            return f"{name} is {'declared ' if vis.startswith('pub') or vis == 'private' else ''}{vis}"
        if mod in public or item in lifted:
            return None
        closed = next(mod[:i] for i in range(1, len(mod) + 1) if mod[:i] not in public)
        return f"{name} is pub, but no public path reaches it (module crate::{'::'.join(closed)} is not public)"

    def nonpublic(self, checked, same_layer, allowed):
        """Imports of non-public items: {(file, defining file, item): ([(path, line)], reason)}."""
        public, lifted = self.public_reach()
        out = {}
        for f in checked:
            for text, line, found in self.resolved_paths(f):
                b, item = self.target_file(found), self.item_of(found)
                if not b or not item or same_layer(f, b) or b in allowed:
                    continue
                reason = self.why_not_public(item, public, lifted)
                if reason:
                    out.setdefault((f, b, item), ([], reason))[0].append((text, line))
        return out

    def reexports_used(self, edges):
        """Re-exported names a file's own code also names: edges the rule leaves out."""
        out = []
        for f in self.files:
            mod, words = self.modules[self.mod_of[f]], set(re.findall(r"\w+", self.code[f]))
            for name, entry in sorted(mod.bindings.items()):
                b = self.target_file(self.follow(entry, [], frozenset()))
                if name in mod.reexports and name in words and b and b != f and (f, b) not in edges \
                        and mod.path + (name,) not in self.modules:
                    out.append((f, b, name))
        return out


def why(causes):
    """The paths behind one edge, each with the lines it is written on."""
    lines = defaultdict(list)
    for text, line in causes:
        lines[text].append(str(line))
    return [f"{t} (line{'s' if len(n) > 1 else ''} {', '.join(n)})" for t, n in lines.items()]


def sccs(nodes, edges):
    """Strongly connected components (mutual reachability), each sorted, largest first."""
    succ = defaultdict(set)
    for a, b in edges:
        succ[a].add(b)
    reach = {}
    for v in nodes:
        seen, todo = {v}, [v]
        while todo:
            for w in succ[todo.pop()] - seen:
                seen.add(w)
                todo.append(w)
        reach[v] = seen
    comps = {tuple(sorted(w for w in reach[v] if v in reach[w])) for v in nodes}
    return sorted((list(c) for c in comps), key=lambda c: (-len(c), c))


def covers(entry, f):
    """Whether a layer-table entry (a file, or a folder prefix ending in /) covers file f."""
    return f == entry or (entry.endswith("/") and f.startswith(entry))


def load_layers(path, files):
    """Layer index of every file (longest matching entry wins), and names; exits 2 on errors."""
    try:
        with open(path, "rb") as fh:
            table = tomllib.load(fh)["layer"]
        names, of, problems = [str(t["name"]) for t in table], {}, []
        assert table and all(isinstance(t["paths"], list) for t in table)
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, AssertionError) as e:
        fail(f"{path}: not a layer table ([[layer]] with name and paths): {e!r}")
    for f in files:
        hits = sorted({(len(p), i) for i, t in enumerate(table) for p in t["paths"] if covers(p, f)})[::-1]
        if not hits or (len(hits) > 1 and hits[0][0] == hits[1][0]):
            tied = sorted(i for n, i in hits if n == hits[0][0])
            problems.append(f"  {f}: in " + (" and ".join(names[i] for i in tied) or "no layer"))
        else:
            of[f] = hits[0][1]
    for p in (p for t in table for p in t["paths"] if not any(covers(p, f) for f in files)):
        print(f"warning: {path}: {p} matches no file", file=sys.stderr)
    if problems:
        fail(f"{path}: every file must be in exactly one layer\n" + "\n".join(problems))
    return of, names


def dot(files, edges, of, names):
    """A graphviz dot of the file graph, clustered by layer."""
    out = ["digraph imports {", "  rankdir=BT; node [shape=box, fontsize=10];"]
    for i, name in enumerate(names or [None]):
        members = [f for f in files if of.get(f) == i] if names else files
        out.append(f'  subgraph cluster_{i} {{ label="{name or ""}";')
        out += [f'    "{f}";' for f in members] + ["  }"]
    for a, b in sorted(edges):
        back = names and of[b] > of[a]
        out.append(f'  "{a}" -> "{b}"' + (' [color=red];' if back else ";"))
    return "\n".join(out + ["}"])


def print_nonpublic(nonpub, of, names):
    """Lists the imports of non-public items from public-only layers, each with its reason."""
    print(f"\nimports of non-public items from public-only layers: {len(nonpub)}")
    for (a, b, _), (causes, reason) in sorted(nonpub.items()):
        print(f"  {a} ({names[of[a]]}) -> {b}: {', '.join(why(sorted(causes, key=lambda c: c[1])))}")
        print(f"      {reason}")


def report(crate, edges, unresolved, of, names, args, nonpub=None):
    """Prints the text report; returns (largest circle, circles over limit, back edges)."""
    files = crate.files
    comps = [c for c in sccs(files, edges) if len(c) >= 2]
    if args.rule:
        print("Counting rule: " + RULE + "\n")
    print(f"files {len(files)}, edges {len(edges)}, unresolved paths {len(unresolved)}")
    for f, line, text in unresolved if args.verbose else []:
        print(f"  unresolved: {f}:{line}: {text}")
    for a, b, name in crate.reexports_used(edges) if args.verbose else []:
        print(f"  not counted (re-exported, also used in its file): {a} -> {b} ({name})")
    print(f"\nimport circles (2 files or more): {len(comps)}")
    for n, comp in enumerate(comps, 1):
        print(f"  circle {n}: {len(comp)} files: " + ", ".join(comp))
    back = sorted(e for e in edges if names and of[e[1]] > of[e[0]])
    if names:
        print(f"\nback edges (lower layer -> higher layer): {len(back)}")
        for a, b in back:
            print(f"  {a} ({names[of[a]]}) -> {b} ({names[of[b]]})")
            for cause in why(edges[(a, b)]):
                print(f"      {cause}")
        print("\nfiles per layer (bottom first):")
        for i, name in enumerate(names):
            members = [f for f in files if of[f] == i]
            print(f"  {name:<12} {len(members):>3}" + ("  " + " ".join(members) if args.verbose else ""))
    if nonpub is not None:
        print_nonpublic(nonpub, of, names)
    largest = len(comps[0]) if comps else 1
    over = sum(len(c) > args.max_circle for c in comps)
    print(f"\nfiles {len(files)}, edges {len(edges)}, largest circle {largest} files, "
          f"circles of more than {args.max_circle} files: {over}, back edges {len(back) if names else 'n/a'}"
          f", unresolved paths {len(unresolved)}"
          + (f", non-public imports {len(nonpub)}" if nonpub is not None else ""))
    return largest, over, back


def public_only(crate, of, names, args):
    """Checks the --public-only layers (None when none is given); exits 2 on an unknown layer or file."""
    if not args.public_only:
        return None
    if not names:
        fail("--public-only needs a layer table")
    unknown = [n for n in args.public_only if n not in names]
    missing = [p for p in args.allow if p not in crate.files]
    if unknown:
        fail(f"--public-only: no layer named {', '.join(unknown)} (layers: {', '.join(names)})")
    if missing:
        fail(f"--allow: no file {', '.join(missing)} under src/")
    layers = {names.index(n) for n in args.public_only}
    checked = [f for f in crate.files if of[f] in layers]
    return crate.nonpublic(checked, lambda a, b: of[a] == of[b], set(args.allow))


def main():
    """Parses the arguments, builds the graph, reports, and checks the limits."""
    description = re.sub(r"\nUsage:.*?\n\n", "\n\n", __doc__, flags=re.S)
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("crate", help="the crate's directory (holding src/), e.g. mcp-server")
    ap.add_argument("--layers", help="layer table (default: CRATE/layers.toml)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a limit is exceeded")
    ap.add_argument("--max-circle", type=int, default=3, help="largest circle allowed (default 3)")
    ap.add_argument("--max-back", type=int, default=5, help="back edges allowed (default 5)")
    ap.add_argument("--verbose", action="store_true", help="list unresolved paths and layer members")
    ap.add_argument("--rule", action="store_true", help="print the counting rule first")
    ap.add_argument("--dot", action="store_true", help="write a graphviz dot to stdout instead")
    ap.add_argument("--public-only", action="append", default=[], metavar="LAYER",
                    help="a layer whose imports from other layers must name public items only "
                         "(repeatable; Type::method checks the type, method visibility is out of scope)")
    ap.add_argument("--allow", action="append", default=[], metavar="PATH",
                    help="a file (relative to src/) whose items --public-only layers may import anyway "
                         "(repeatable)")
    args = ap.parse_args()
    root = Path(args.crate)
    if not (root / "src").is_dir():
        root = Path(__file__).resolve().parent.parent / args.crate
    if not (root / "src").is_dir():
        fail(f"no src/ under {args.crate}")
    crate = Crate(root / "src")
    edges, unresolved = crate.graph()
    layers = Path(args.layers) if args.layers else root / "layers.toml"
    of, names = {}, []
    if layers.is_file():
        of, names = load_layers(layers, crate.files)
    elif args.layers or args.check:
        fail(f"no layer table at {layers}")
    else:
        print(f"note: no layer table at {layers}; back edges not counted", file=sys.stderr)
    if args.dot:
        print(dot(crate.files, edges, of, names))
        return 0
    nonpub = public_only(crate, of, names, args)
    largest, over, back = report(crate, edges, unresolved, of, names, args, nonpub)
    failed = []
    if nonpub:
        failed.append(f"{len(nonpub)} import(s) of non-public items from public-only layers")
    if over:
        failed.append(f"{over} circle(s) of more than {args.max_circle} files (largest {largest})")
    if len(back) > args.max_back:
        failed.append(f"{len(back)} back edges (more than {args.max_back})")
    if not args.check:
        return 0
    print("check failed: " + "; ".join(failed) if failed else "check passed")
    return 1 if failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    sys.exit(main())
