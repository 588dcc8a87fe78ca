#!/usr/bin/env python3
"""Finds a symbol of the toolkit used under conditions wider than those it is declared under.

For each platform the package claims (and each build this repository runs: Swift 6.2, the
Apple profile, the traits on and off), every `#if` of the toolkit's sources is evaluated as
that platform's compiler would evaluate it. A type, or a top-level function or constant,
declared only inside some `#if` is a conditional symbol; the check fails where one is used
in code that is compiled for a platform on which none of its declarations is. That is the
mistake the fence check cannot see, since it turns every condition off at once: a file
compiled for macOS naming a type declared for Linux only.

Usage: platform-symbols.py DIRECTORY...
"""
import pathlib
import re
import sys

APPLE = {"macOS", "iOS", "tvOS", "watchOS", "visionOS"}

# What each platform's SDK lets a file import, among the modules the toolkit's fences name.
# A module not listed here fails the check, so a new fence is decided, not guessed.
IMPORTABLE = {
    "Darwin": APPLE,
    "Glibc": {"Linux"},
    "Musl": set(),
    "Android": set(),
    "WinSDK": set(),
    "WASILibc": set(),
    "Dispatch": APPLE | {"Linux"},
    "Foundation": APPLE | {"Linux"},
    # The toolchain's module; Apple's SDKs have `Foundation` instead.
    "FoundationEssentials": {"Linux"},
    # The backtracing module ships with the toolchain on Linux, not in Apple's SDKs.
    "Runtime": {"Linux"},
    "XCTest": APPLE | {"Linux"},
    "Testing": APPLE | {"Linux"},
    "Synchronization": APPLE | {"Linux"},
    "Observation": APPLE | {"Linux"},
}


class Build:
    """One way the toolkit is compiled: a platform, an architecture, a compiler, flags."""

    def __init__(self, name, platform, arch, compiler=(6, 3), flags=(), traits=("SwiftDependencies",)):
        self.name = name
        self.platform = platform
        self.arch = arch
        self.compiler = compiler
        self.flags = set(flags)
        self.traits = set(traits)

    def call(self, function, argument):
        argument = argument.strip()
        if function == "os":
            return argument == self.platform
        if function == "arch":
            return argument == self.arch
        if function == "canImport":
            module = argument.split(",")[0].split(".")[0].strip()
            if module in IMPORTABLE:
                return self.platform in IMPORTABLE[module]
            if module in MODULES:
                return True
            raise ValueError(f"canImport({module}): say in IMPORTABLE where it can be imported")
        if function == "targetEnvironment":
            return False
        if function == "_runtime":
            return argument == "_ObjC" and self.platform in APPLE
        if function in ("compiler", "swift"):
            match = re.fullmatch(r"(>=|<)\s*(\d+)(?:\.(\d+))?", argument)
            if not match:
                raise ValueError(f"{function}({argument}): not understood")
            wanted = (int(match.group(2)), int(match.group(3) or 0))
            have = self.compiler if function == "compiler" else (6, 0)
            return have >= wanted if match.group(1) == ">=" else have < wanted
        if function == "hasFeature":
            return True
        if function in ("_endian", "_pointerBitWidth", "_hasAtomicBitWidth"):
            return argument in ("little", "_64")
        raise ValueError(f"{function}(…): not understood")

    def flag(self, name):
        if name in ("true", "false"):
            return name == "true"
        return name in self.flags or name in self.traits

    def holds(self, condition):
        expression = re.sub(
            r"([A-Za-z_][A-Za-z0-9_]*)\(([^()]*)\)",
            lambda m: " True " if self.call(m.group(1), m.group(2)) else " False ",
            condition)
        expression = re.sub(
            r"\b(?!True\b|False\b)([A-Za-z_][A-Za-z0-9_]*)\b",
            lambda m: " True " if self.flag(m.group(1)) else " False ",
            expression)
        expression = expression.replace("&&", " and ").replace("||", " or ")
        expression = re.sub(r"!(?!=)", " not ", expression)
        return bool(eval(expression, {"__builtins__": {}}))


PROFILE = ("TP_NO_TASK_CREATION_HOOK", "TP_NO_CHILD_PROCESS", "TP_NO_SYMBOLICATION")
BUILDS = [
    Build("Linux x86_64", "Linux", "x86_64"),
    Build("Linux arm64", "Linux", "arm64"),
    Build("Linux, Swift 6.2", "Linux", "x86_64", compiler=(6, 2)),
    Build("Linux, SwiftDependencies off", "Linux", "x86_64", traits=()),
    Build("Linux, the Apple profile", "Linux", "x86_64", flags=PROFILE),
    Build("macOS arm64", "macOS", "arm64"),
    Build("macOS x86_64", "macOS", "x86_64"),
    Build("macOS, Swift 6.2", "macOS", "arm64", compiler=(6, 2)),
    Build("iOS", "iOS", "arm64"),
    Build("tvOS", "tvOS", "arm64"),
    Build("watchOS", "watchOS", "arm64"),
    Build("visionOS", "visionOS", "arm64"),
]

DECLARATION = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|final|nonisolated(?:\(unsafe\))?|static|indirect)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)")
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
MODULES = set()


def code_lines(text):
    """The file's lines with comments and string literals blanked, so that only code is
    searched for names."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    lines = []
    for line in text.split("\n"):
        line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
        line = re.sub(r"//.*", "", line)
        lines.append(line)
    return lines


def regions(lines, build):
    """For each line, whether `build` compiles it, and whether it sits inside some `#if`."""
    stack = []  # (this branch active, some earlier branch taken, parent active)
    out = []
    for line in lines:
        stripped = line.strip()
        active = all(frame[0] for frame in stack)
        if stripped.startswith("#if"):
            parent = active
            holds = build.holds(stripped[3:])
            stack.append([holds, holds, parent])
            out.append((False, True))
            continue
        if stripped.startswith("#elseif"):
            frame = stack[-1]
            holds = not frame[1] and build.holds(stripped[7:])
            frame[0] = holds
            frame[1] = frame[1] or holds
            out.append((False, True))
            continue
        if stripped.startswith("#else"):
            frame = stack[-1]
            frame[0] = not frame[1]
            frame[1] = True
            out.append((False, True))
            continue
        if stripped.startswith("#endif"):
            stack.pop()
            out.append((False, bool(stack)))
            continue
        out.append((active, bool(stack)))
    return out


def top_level(lines):
    """For each line, whether it sits at brace depth 0, where types and top-level functions
    and constants are declared."""
    depth = 0
    out = []
    for line in lines:
        out.append(depth == 0)
        depth += line.count("{") - line.count("}")
    return out


def main(roots):
    files = {}
    for root in roots:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            files[path] = code_lines(path.read_text())
    # Names declared at the top level of some file, with where, and whether inside an `#if`.
    declared = {}
    unconditional = set()
    for path, lines in files.items():
        tops = top_level(lines)
        fenced = [inside for _, inside in regions(lines, BUILDS[0])]
        for number, line in enumerate(lines):
            match = DECLARATION.match(line)
            if match and tops[number]:
                name = match.group(1)
                declared.setdefault(name, []).append((path, number))
                if not fenced[number]:
                    unconditional.add(name)
    conditional = set(declared) - unconditional
    failures = []
    for build in BUILDS:
        active = {path: regions(lines, build) for path, lines in files.items()}
        available = {
            name for name in conditional
            for path, number in declared[name] if active[path][number][0]
        }
        for path, lines in files.items():
            for number, line in enumerate(lines):
                if not active[path][number][0]:
                    continue
                for name in set(IDENTIFIER.findall(line)) & conditional:
                    if name in available or (path, number) in declared[name]:
                        continue
                    failures.append(
                        f"{path}:{number + 1}: {name} is used here in the {build.name} build,"
                        f" where it is not declared (declared at "
                        + ", ".join(f"{p.name}:{n + 1}" for p, n in declared[name]) + ")")
    if failures:
        print("\n".join(sorted(set(failures))), file=sys.stderr)
        return 1
    print(f"platform-symbols: {len(conditional)} conditional symbols, each used only where"
          f" declared, in {len(BUILDS)} builds")
    return 0


if __name__ == "__main__":
    MODULES.update({"CLinkMap", "CTaskCreation", "LockSupport", "TaskProviding", "Dependencies",
                    "IssueReporting", "CustomDump"})
    sys.exit(main(sys.argv[1:]))
