#!/usr/bin/env python3
"""Prints chosen fields of a JSON result as `key = value` lines for a transcript."""

import json
import sys


def lookup(record, dotted):
    value = record
    for part in dotted.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: show_json.py FILE KEY [KEY ...]  (KEY may be dotted: a.b)")
    with open(sys.argv[1], encoding="utf-8") as handle:
        record = json.load(handle)
    for key in sys.argv[2:]:
        try:
            print(f"{key} = {lookup(record, key)}")
        except (KeyError, TypeError):
            print(f"{key} is missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
