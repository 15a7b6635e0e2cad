# schemathesis hooks for Tests/OpenAPI/schemathesis.sh (SCHEMATHESIS_HOOKS=Tests/OpenAPI/hooks.py).
#
# docs/openapi.yaml marks an array whose items must differ in one property with `x-unique-item-property` (a docType
# is requested at most once): JSON Schema's uniqueItems compares whole items and cannot say it. Generated bodies
# that repeat such a property are schema-valid only to JSON Schema; they are dropped here, so no operation has to
# accept a 400 as a valid answer.
import json
import pathlib

import schemathesis
import yaml

_document = yaml.safe_load((pathlib.Path(__file__).parents[2] / "docs" / "openapi.yaml").read_text())


def _marked(node):
    """(array property name, unique item property) for every object property marked in the document."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict) and "x-unique-item-property" in schema:
                yield name, schema["x-unique-item-property"]
        for value in node.values():
            yield from _marked(value)
    elif isinstance(node, list):
        for value in node:
            yield from _marked(value)


_UNIQUE = sorted(set(_marked(_document)))


def _repeats(body):
    if not isinstance(body, dict):
        return False
    for array, key in _UNIQUE:
        items = body.get(array)
        if isinstance(items, list):
            values = [repr(item[key]) for item in items if isinstance(item, dict) and key in item]
            if len(values) != len(set(values)):
                return True
    return False


def _trust_dependent(node):
    """Names of the array properties marked `x-trust-dependent`: which items the server accepts depends on its trust
    store (an issuer allow-list must name trusted anchors), so generated items are not valid requests."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict):
                target = schema
                if "$ref" in schema:
                    target = _document["components"]["schemas"].get(schema["$ref"].rsplit("/", 1)[-1], {})
                if target.get("x-trust-dependent"):
                    yield name
        for value in node.values():
            yield from _trust_dependent(value)
    elif isinstance(node, list):
        for value in node:
            yield from _trust_dependent(value)


_TRUST_DEPENDENT = sorted(set(_trust_dependent(_document)))


def _names_trust(body):
    return isinstance(body, dict) and any(isinstance(body.get(name), list) and body.get(name) for name in _TRUST_DEPENDENT)


def _json_object_text(node):
    """Names of the string properties marked `x-json-object-text`: a form field whose text must be a JSON object
    (`wallet_metadata`), which JSON Schema cannot state of a string."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict) and schema.get("x-json-object-text"):
                yield name
        for value in node.values():
            yield from _json_object_text(value)
    elif isinstance(node, list):
        for value in node:
            yield from _json_object_text(value)


_JSON_OBJECT_TEXT = sorted(set(_json_object_text(_document)))


def _not_object_text(body):
    if not isinstance(body, dict):
        return False
    for name in _JSON_OBJECT_TEXT:
        value = body.get(name)
        if isinstance(value, str):
            try:
                if not isinstance(json.loads(value), dict) or len(value.encode()) > 16384:
                    return True
            except ValueError:
                return True
    return False


# Every phase: the coverage phase applies filter_case only, the others filter_case too.
@schemathesis.hook
def filter_case(context, case):
    return not _repeats(case.body) and not _names_trust(case.body) and not _not_object_text(case.body)
