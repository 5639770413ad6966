#!/usr/bin/env python3
"""No function longer than 80 lines in kernel/, sim/ or models/ (C++ and Python), but for the ones ALLOWED names,
each with the reason it may be; an allowed function that is short now, or gone, is a problem too (the list
shrinks as they are split).

    check_functions.py SOURCE [--limit 80] [--pretend-lines N]

Prints one line per problem and a summary; exit status 1 when there is a problem. --pretend-lines N adds a
function of N lines as if it were in kernel/pretend.cpp (a demonstration that the check can fail).
"""
import argparse
import ast
import os
import re
import sys

FOLDERS = ("kernel", "sim", "models")
LIMIT = 80
# path:function -> why it may be longer (issue 72 splits these; each split removes its line).
ALLOWED = {
    "sim/sim_options.py:parse_arguments": "gups-sim's own options, one add_argument each (the probes' come from the catalogue); not yet split",
    "kernel/programs/gups_main.cpp:run": "the driver's phases in one sequence; not yet split",
    "models/src/gups_model_main.cpp:run": "gups-model's report sequence; not yet split",
    "sim/plan/run_plan.cpp:plan_run": "the run plan's steps in one sequence; not yet split",
    "kernel/core/run_report.cpp:format_hpcc_lines": "HPCC's output lines in their order; not yet split",
    "kernel/core/run_report.cpp:to_json": "one JSON object, field by field; not yet split",
    "models/src/model_report.cpp:format_series": "the model's table, column by column; not yet split",
    "models/calibrate/calibrate_main.cpp:host_machine": "the host's machine file, field by field; not yet split",
}
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try|return|namespace|class|struct|enum|union)\b")
NAME = re.compile(r"([A-Za-z_~][A-Za-z_0-9:~<>]*)\s*\(")


def strip(text):
    """The code with comments, strings, character literals and preprocessor lines blanked (newlines kept)."""
    text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def cpp_functions(text):
    """(name, first line, last line) of every function body in C++ source, lambdas and control blocks left out."""
    code = strip(text)
    found, stack, start = [], [], 0  # stack: (is function, name, first line) per open brace
    for i, c in enumerate(code):
        if c in ";}":
            start = i + 1
        if c == "{":
            head = code[start:i]
            flat = " ".join(head.split())
            line = code.count("\n", 0, start + len(head) - len(head.lstrip()))+ 1
            is_function = ("(" in flat and ")" in flat and not CONTROL.match(flat) and not flat.endswith("=")
                           and "](" not in flat and not re.search(r"\]\s*(mutable\s*)?(->.*)?$", flat)
                           and not re.search(r"\)\s*(mutable|noexcept)?\s*->", flat) and "= [" not in flat
                           and not re.match(r"^\s*\[", flat) and not flat.rstrip().endswith(")"+"]"))
            names = NAME.findall(flat.split("(")[0] + "(") if is_function else []
            inside_function = any(f for f, _, _ in stack)
            stack.append((is_function and not inside_function, names[-1] if names else "?", line))
            start = i + 1
        elif c == "}" and stack:
            is_function, name, first = stack.pop()
            if is_function:
                found.append((name.split("::")[-1] if name != "main" else name, first, code.count("\n", 0, i) + 1))
            start = i + 1
    return found


def py_functions(text):
    return [(node.name, node.lineno, node.end_lineno) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def long_functions(path, text, limit):
    """(name, first line, length) of each function of `text` (the file at `path`) over `limit` lines."""
    functions = py_functions(text) if path.endswith(".py") else cpp_functions(text)
    return [(name, first, last - first + 1) for name, first, last in functions if last - first + 1 > limit]


def too_long(path, name, first, length, limit):
    return (f"{path}:{first}: {name} is {length} lines, over {limit} (split it, or say why in check_functions.py's "
            f"ALLOWED)")


def sources(root):
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp", ".py")):
                    yield os.path.relpath(os.path.join(directory, name), root)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source")
    p.add_argument("--limit", type=int, default=LIMIT)
    p.add_argument("--pretend-lines", type=int, help="a function of this many lines, as if in kernel/pretend.cpp")
    args = p.parse_args(argv)
    files = {}
    for path in sources(args.source):
        with open(os.path.join(args.source, path), encoding="utf-8") as f:
            files[path] = f.read()
    if args.pretend_lines:
        body = "".join(f"  a += {i};\n" for i in range(max(0, args.pretend_lines - 3)))
        files["kernel/pretend.cpp"] = "int pretend(int a) {\n" + body + "  return a;\n}\n"
    problems, seen = [], set()
    for path, text in files.items():
        for name, first, length in long_functions(path, text, args.limit):
            key = f"{path}:{name}"
            seen.add(key)
            if key not in ALLOWED:
                problems.append(too_long(path, name, first, length, args.limit))
    for key in sorted(set(ALLOWED) - seen):
        problems.append(f"{key} is allowed to be long but is not (or is gone): take it out of ALLOWED")
    for problem in problems:
        print(f"check_functions: {problem}")
    checked = len(files) - (1 if args.pretend_lines else 0)
    print(f"check_functions: {checked} files in {', '.join(FOLDERS)}, {len(ALLOWED)} allowed, {len(problems)} "
          f"problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
