#!/usr/bin/env python3
"""The install recipes of docs/install.md, as shell scripts (issue 34 §4).

A recipe is the fenced block that follows a marker line `<!-- recipe: NAME -->`:
  - a ```sh block is run as it is written (bash -e);
  - a ```yaml block is a GitHub Actions workflow (a job with `steps`) or a GitLab CI job (a mapping
    with `script`). Its shell is what the CI service would run: the job's `env`/`variables`, then
    GitHub's `run` steps (each in its own `bash -e`, as GitHub runs them, with the step's `env`;
    `uses:` steps are the runner's, e.g. the checkout, and are left out) or GitLab's
    `before_script` and `script` lines (one shell, stopping at the first failing line).

  install_recipes.py FILE NAME           prints recipe NAME as a bash script
  install_recipes.py FILE NAME --env     prints the recipe's environment as KEY=VALUE lines
  install_recipes.py FILE NAME --artifact codequality   prints a GitLab job's artifact path
  install_recipes.py FILE --list         prints every recipe's name and kind

Scripts/check-install-recipes.sh runs the scripts in clean Debian 12 roots. Exit 2 when the file
has no such recipe or the block is not one of these kinds.
"""

import re
import shlex
import sys

import yaml

MARKER = re.compile(r"^<!--\s*recipe:\s*([A-Za-z0-9_-]+)\s*-->\s*$")
FENCE = re.compile(r"^```\s*([A-Za-z0-9_-]*)\s*$")


def recipes(path):
    """{name: (language, text)} for every marked block of the file."""
    found = {}
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        marker = MARKER.match(lines[index])
        index += 1
        if not marker:
            continue
        name = marker.group(1)
        while index < len(lines) and not lines[index].strip():
            index += 1
        opening = FENCE.match(lines[index]) if index < len(lines) else None
        if not opening:
            sys.exit(f"{path}: the recipe {name} is not followed by a fenced block")
        language = opening.group(1)
        body = []
        index += 1
        while index < len(lines) and not FENCE.match(lines[index]):
            body.append(lines[index])
            index += 1
        if name in found:
            sys.exit(f"{path}: two recipes named {name}")
        found[name] = (language, "\n".join(body) + "\n")
    return found


def kind(language, text):
    if language in ("sh", "bash", "shell"):
        return "shell", None
    if language not in ("yaml", "yml"):
        sys.exit(f"a recipe's block must be sh or yaml, not {language!r}")
    document = yaml.safe_load(text)
    if isinstance(document, dict) and "jobs" in document:
        jobs = list(document["jobs"].values())
        if len(jobs) != 1:
            sys.exit("a GitHub Actions recipe has exactly one job")
        return "github-actions", jobs[0]
    jobs = [value for value in (document or {}).values() if isinstance(value, dict) and "script" in value]
    if len(jobs) != 1:
        sys.exit("a GitLab CI recipe has exactly one job with a script")
    return "gitlab-ci", jobs[0]


def exports(mapping):
    return "".join(f"export {key}={shlex.quote(str(value))}\n" for key, value in (mapping or {}).items())


def script(language, text):
    recipe_kind, job = kind(language, text)
    out = ["#!/usr/bin/env bash", "set -e"]
    if recipe_kind == "shell":
        out.append(text)
        return "\n".join(out) + "\n"
    # The recipe's own variables; a caller's overrides (RECIPE_OVERRIDES, KEY=VALUE lines) win, as
    # a project's CI settings would.
    out.append(exports(job.get("env") if recipe_kind == "github-actions" else job.get("variables")))
    out.append(
        'if [ -n "${RECIPE_OVERRIDES:-}" ]; then while IFS= read -r line; do export "$line"; done <<<"$RECIPE_OVERRIDES"; fi'
    )
    if recipe_kind == "github-actions":
        for number, step in enumerate(job.get("steps", []), 1):
            if "run" not in step:
                out.append(f"# step {number}: uses {step.get('uses')} (the runner's; not run here)")
                continue
            out.append(f"# step {number}: {step.get('name', '')}")
            out.append("(" + exports(step.get("env")) + "exec bash -e -c " + shlex.quote(step["run"]) + ")")
    else:
        lines = list(job.get("before_script", [])) + list(job.get("script", []))
        out.append("bash -e -c " + shlex.quote("\n".join(lines)))
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) == 3 and argv[2] == "--list":
        for name, (language, text) in recipes(argv[1]).items():
            print(name, kind(language, text)[0])
        return 0
    if len(argv) < 3:
        sys.exit(__doc__)
    found = recipes(argv[1])
    if argv[2] not in found:
        print(f"{argv[1]}: no recipe named {argv[2]}", file=sys.stderr)
        return 2
    language, text = found[argv[2]]
    if argv[3:] == ["--env"]:
        recipe_kind, job = kind(language, text)
        mapping = job.get("env") if recipe_kind == "github-actions" else (job or {}).get("variables")
        for key, value in (mapping or {}).items():
            print(f"{key}={value}")
    elif argv[3:4] == ["--artifact"] and len(argv) == 5:
        recipe_kind, job = kind(language, text)
        path = ((job or {}).get("artifacts") or {}).get("reports", {}).get(argv[4])
        if not path:
            print(f"the recipe {argv[2]} has no artifacts: reports: {argv[4]}", file=sys.stderr)
            return 2
        print(path)
    elif len(argv) == 3:
        sys.stdout.write(script(language, text))
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
