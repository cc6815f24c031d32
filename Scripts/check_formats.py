#!/usr/bin/env python3
"""Checks SpotCheck's machine formats with independent tools (issue 15 §4).

- SARIF logs (``--sarif``) against the official SARIF 2.1.0 JSON Schema, with format checks on:
  ``jsonschema``'s ``FormatChecker`` checks ``uri`` and ``uri-reference`` with ``rfc3986-validator``
  (an artifact URI that is no URI reference fails, as GitHub's upload would).
- report.json files (``--report``) against docs/report.schema.json (draft 2020-12).
- JUnit files (``--junit``), parsed with the standard library: ``tests`` of ``<testsuites>`` and of
  each ``<testsuite>`` equals its test cases, ``failures`` its cases with a ``<failure>``, ``errors``
  its cases with an ``<error>``, ``skipped`` its cases with ``<skipped>``.

Exit 0 when every file passes, 1 otherwise, 2 on a usage error. Run by Scripts/check-formats.sh,
which installs the validators into a virtual environment.
"""

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree

import jsonschema
import rfc3986_validator  # noqa: F401 -- imported so a missing validator fails here, not silently


def schema_problems(schema_path, paths):
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    # The generic FormatChecker checks every format it knows, uri-reference included (the SARIF
    # schema is draft-04, whose own checker would skip it).
    validator = validator_class(schema, format_checker=jsonschema.FormatChecker())
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        if errors:
            failed = True
            print(f"{path}: {len(errors)} error(s) against {schema_path}", file=sys.stderr)
            for error in errors[:20]:
                where = "/".join(str(part) for part in error.absolute_path) or "(root)"
                print(f"  {where}: {error.message[:300]}", file=sys.stderr)
        else:
            print(f"{path}: valid against {schema_path} (format checks on)")
    return failed


def junit_problems(paths):
    failed = False
    for path in paths:
        root = ElementTree.parse(path).getroot()
        suites = [root] + root.findall("testsuite") if root.tag == "testsuites" else [root]
        problems = []
        for suite in suites:
            cases = suite.iter("testcase")
            counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
            for case in cases:
                counts["tests"] += 1
                counts["failures"] += case.find("failure") is not None
                counts["errors"] += case.find("error") is not None
                counts["skipped"] += case.find("skipped") is not None
            for key, actual in counts.items():
                declared = suite.get(key)
                if declared is None:
                    if key in ("tests", "failures"):
                        problems.append(f"<{suite.tag} name={suite.get('name')!r}> has no {key} attribute")
                elif int(declared) != actual:
                    problems.append(
                        f"<{suite.tag} name={suite.get('name')!r}> declares {key}={declared}, holds {actual}")
        if problems:
            failed = True
            print(f"{path}: JUnit counts wrong", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
        else:
            cases = sum(1 for _ in root.iter("testcase"))
            failing = sum(1 for case in root.iter("testcase") if case.find("failure") is not None)
            print(f"{path}: JUnit counts right ({cases} tests, {failing} failing)")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sarif-schema", help="the SARIF 2.1.0 JSON Schema")
    parser.add_argument("--sarif", nargs="*", default=[], help="SARIF logs")
    parser.add_argument("--report-schema", help="docs/report.schema.json")
    parser.add_argument("--report", nargs="*", default=[], help="report.json files")
    parser.add_argument("--junit", nargs="*", default=[], help="JUnit XML files")
    arguments = parser.parse_args()
    if arguments.sarif and not arguments.sarif_schema or arguments.report and not arguments.report_schema:
        parser.error("--sarif needs --sarif-schema, --report needs --report-schema")
    failed = False
    if arguments.sarif:
        failed |= schema_problems(arguments.sarif_schema, arguments.sarif)
    if arguments.report:
        failed |= schema_problems(arguments.report_schema, arguments.report)
    failed |= junit_problems(arguments.junit)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
