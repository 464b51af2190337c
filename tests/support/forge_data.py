"""GitHub's published REST description and recorded real exchanges, from npm, for forge tests.

``tests/support/forge/package.json`` pins ``@octokit/openapi`` (GitHub's OpenAPI description of
api.github.com, ``generated/api.github.com.json``: OpenAPI 3.0 with ``$ref``s, 13 MB; the deref'd
variant is 73 MB and not needed) and ``@octokit/fixtures`` (real exchanges with api.github.com,
recorded by octokit and normalised: ``scenarios/api.github.com/<name>/normalized-fixture.json``).

``forge_data()`` finds them, running ``npm ci`` in ``tests/support/forge`` once when they are not
installed (under a file lock, so parallel pytest processes do not race). It returns ``None`` when
npm is missing or the install fails; ``missing_reason()`` then says why, for ``pytest.skip``.

``OpenAPISchemas`` validates a response body against the schema GitHub publishes for an operation
(``validate_response("get", "/repos/{owner}/{repo}/issues", 200, body)``) or for a named component
(``validate("issue", body)``), as of an API version (``X-GitHub-Api-Version``: the description's
``x-github-breaking-changes`` patches are applied). OpenAPI 3.0's ``nullable`` becomes JSON Schema.

Loaded by path like the other support modules (``tests/`` is not a package).
"""

from __future__ import annotations

import copy
import fcntl
import functools
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORGE_DIR = Path(__file__).resolve().parent / "forge"
NPM_TIMEOUT = 300.0
_problem: list[str] = []


@dataclass(frozen=True)
class ForgeData:
    openapi: Path  # @octokit/openapi's api.github.com.json
    scenarios: Path  # @octokit/fixtures' scenarios/api.github.com

    def scenario(self, name: str) -> list[dict[str, Any]]:
        """The recorded exchanges of one scenario, in order: each has method, path, status,
        response (the parsed body), headers (the response's) and reqheaders."""
        return json.loads((self.scenarios / name / "normalized-fixture.json").read_text())


def _pinned() -> dict[str, str]:
    return json.loads((FORGE_DIR / "package.json").read_text())["dependencies"]


def _installed() -> bool:
    for name, version in _pinned().items():
        manifest = FORGE_DIR / "node_modules" / name / "package.json"
        if not manifest.is_file() or json.loads(manifest.read_text()).get("version") != version:
            return False
    return True


def _npm_ci() -> str | None:
    """Install the pinned packages; an error message, or None when they are there."""
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed: the GitHub OpenAPI description and fixtures come from npm"
    key = hashlib.sha256(str(FORGE_DIR).encode()).hexdigest()[:12]
    lock_path = Path(tempfile.gettempdir()) / f"ctx-forge-npm-{key}.lock"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second process waits here, then finds them installed
        if _installed():
            return None
        try:
            done = subprocess.run(
                [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                cwd=FORGE_DIR,
                capture_output=True,
                text=True,
                timeout=NPM_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            return f"npm ci in {FORGE_DIR} took longer than {NPM_TIMEOUT:.0f} s"
        if done.returncode != 0 or not _installed():
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return f"npm ci in {FORGE_DIR} failed: {' / '.join(tail)}"
    return None


@functools.cache
def forge_data() -> ForgeData | None:
    if not _installed():
        problem = _npm_ci()
        if problem is not None:
            _problem.append(problem)
            return None
    modules = FORGE_DIR / "node_modules" / "@octokit"
    return ForgeData(
        openapi=modules / "openapi" / "generated" / "api.github.com.json",
        scenarios=modules / "fixtures" / "scenarios" / "api.github.com",
    )


def missing_reason() -> str:
    """Why ``forge_data()`` returned None (call it first)."""
    return _problem[-1] if _problem else "the npm forge data is not installed"


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable: true`` becomes a null type (or a null
    alternative where the schema has no plain type)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") is not True:
        return out
    if isinstance(out.get("type"), str) and not {"allOf", "anyOf", "oneOf", "$ref"} & out.keys():
        out["type"] = [out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    return {"anyOf": [{"type": "null"}, out]}


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: a null removes a key, an object merges, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def json_patch(target: Any, operations: list[dict[str, Any]]) -> Any:
    """RFC 6902's remove, add and replace (all that GitHub's breaking changes use)."""
    out = copy.deepcopy(target)
    for op in operations:
        *parents, last = [
            p.replace("~1", "/").replace("~0", "~") for p in op["path"][1:].split("/")
        ]
        node = out
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            index = len(node) if last == "-" else int(last)
            if op["op"] == "remove":
                del node[index]
            elif op["op"] == "add":
                node.insert(index, op["value"])
            else:
                node[index] = op["value"]
        elif op["op"] == "remove":
            node.pop(last, None)
        else:
            node[last] = op["value"]
    return out


def versioned(node: Any, version: str) -> Any:
    """The description as of an API version: each ``x-github-breaking-changes`` entry up to
    ``version`` applied where it stands (a merge patch or a JSON patch)."""
    if isinstance(node, list):
        return [versioned(item, version) for item in node]
    if not isinstance(node, dict):
        return node
    changes = node.get("x-github-breaking-changes", [])
    out = {k: versioned(v, version) for k, v in node.items() if k != "x-github-breaking-changes"}
    for change in changes:
        if change["version"] <= version:
            patch = change["patch"]
            out = merge_patch(out, patch) if isinstance(patch, dict) else json_patch(out, patch)
    return out


BASE_VERSION = "2022-11-28"  # what GitHub answers when a request names no X-GitHub-Api-Version


class OpenAPISchemas:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.version = document["info"]["version"]  # the npm package's
        self._lock = threading.Lock()
        self._by_version: dict[str, tuple[dict[str, Any], Any]] = {}

    def api_versions(self) -> set[str]:
        """The API versions the description knows: the base one and each breaking change's."""
        found = {BASE_VERSION}
        text = json.dumps(self.document["components"]["schemas"])
        found.update(re.findall(r'"version": "(\d{4}-\d{2}-\d{2})"', text))
        return found

    def _at(self, version: str) -> tuple[dict[str, Any], Any]:
        with self._lock:
            if version not in self._by_version:
                document = (
                    self.document if version == BASE_VERSION else versioned(self.document, version)
                )
                self._by_version[version] = (document, json_schema(document["components"]))
            return self._by_version[version]

    def response_schema(
        self, method: str, path: str, status: int, version: str = BASE_VERSION
    ) -> dict[str, Any] | None:
        """The JSON schema GitHub publishes for ``status`` of the operation, None if none."""
        document, _ = self._at(version)
        responses = document["paths"][path][method.lower()]["responses"]
        response = responses.get(str(status))
        if response is None:
            return None
        if "$ref" in response:
            response = document["components"]["responses"][response["$ref"].split("/")[-1]]
        content = response.get("content", {}).get("application/json")
        return None if content is None else json_schema(content["schema"])

    def _check(self, schema: dict[str, Any], instance: Any, version: str) -> None:
        import jsonschema

        root = {**schema, "components": self._at(version)[1]}
        jsonschema.Draft4Validator(root).validate(instance)

    def validate(self, component: str, instance: Any, version: str = BASE_VERSION) -> None:
        """Raise ``jsonschema.ValidationError`` unless ``instance`` fits the named schema."""
        self._check({"$ref": f"#/components/schemas/{component}"}, instance, version)

    def validate_response(
        self, method: str, path: str, status: int, body: Any, version: str = BASE_VERSION
    ) -> None:
        schema = self.response_schema(method, path, status, version)
        if schema is None:
            raise LookupError(f"GitHub documents no JSON body for {method} {path} {status}")
        self._check(schema, body, version)


@functools.cache
def openapi_schemas() -> OpenAPISchemas | None:
    data = forge_data()
    if data is None:
        return None
    return OpenAPISchemas(json.loads(data.openapi.read_text()))
