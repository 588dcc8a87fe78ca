#!/usr/bin/env python3
"""Rewrites Swift sources in place as a platform the code does not know would see them.

In every `#if` and `#elseif`, each platform condition becomes `false`: `os(…)`, `arch(…)`,
`targetEnvironment(…)`, `_runtime(…)`, `_endian(…)`, `_pointerBitWidth(…)` and `canImport(…)`
of a module that only some platforms have. Conditions that are not the platform's (traits,
`compiler(…)`, `swift(…)`, `hasFeature(…)`, `canImport` of the standard library's own
modules) keep their meaning.

Fails, naming the line, where a platform module is imported outside every `#if`: that import
would fail to build wherever the module is missing.
"""
import pathlib
import re
import sys

PLATFORM_MODULES = {
    "Glibc", "Musl", "Darwin", "WinSDK", "ucrt", "CRT", "Android", "Bionic", "WASILibc",
    "Foundation", "FoundationEssentials", "Dispatch", "XCTest", "Runtime", "os", "ObjectiveC",
}
FUNCTIONS = r"(?:os|arch|targetEnvironment|_runtime|_endian|_pointerBitWidth|_hasAtomicBitWidth)"
PLATFORM_CALL = re.compile(FUNCTIONS + r"\([^()]*\)")
CAN_IMPORT = re.compile(r"canImport\(\s*([A-Za-z_][A-Za-z0-9_.]*)[^()]*\)")
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)


def rewrite(line):
    def can_import(match):
        module = match.group(1).split(".")[0]
        return "false" if module in PLATFORM_MODULES else match.group(0)

    return CAN_IMPORT.sub(can_import, PLATFORM_CALL.sub("false", line))


failures = []
for root in sys.argv[1:]:
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        lines = path.read_text().splitlines(keepends=True)
        depth = 0
        out = []
        for number, line in enumerate(lines, start=1):
            stripped = line.lstrip()
            if stripped.startswith("#if"):
                depth += 1
                line = rewrite(line)
            elif stripped.startswith("#elseif"):
                line = rewrite(line)
            elif stripped.startswith("#endif"):
                depth -= 1
            elif depth == 0:
                match = IMPORT.match(line)
                if match and match.group(1) in PLATFORM_MODULES:
                    failures.append(f"{path}:{number}: {match.group(1)} imported outside a fence")
            out.append(line)
        path.write_text("".join(out))

if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
