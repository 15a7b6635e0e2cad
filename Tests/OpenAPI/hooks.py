# schemathesis hooks for Tests/OpenAPI/schemathesis.sh (SCHEMATHESIS_HOOKS=Tests/OpenAPI/hooks.py).
#
# docs/openapi.yaml marks an array whose items must differ in one property with `x-unique-item-property` (a docType
# is requested at most once): JSON Schema's uniqueItems compares whole items and cannot say it. Generated bodies
# that repeat such a property are schema-valid only to JSON Schema; they are dropped here, so no operation has to
# accept a 400 as a valid answer.
import json
import os
import pathlib

import schemathesis
import yaml

_document = yaml.safe_load((pathlib.Path(__file__).parents[2] / "docs" / "openapi.yaml").read_text())


def _properties(node, test):
    """(name, schema) of every object property in the document whose schema passes `test`."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict) and test(schema):
                yield name, schema
        for value in node.values():
            yield from _properties(value, test)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value, test)


_UNIQUE = sorted({(name, schema["x-unique-item-property"])
                  for name, schema in _properties(_document, lambda schema: "x-unique-item-property" in schema)})


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


def _resolved(schema):
    if "$ref" in schema:
        return _document["components"]["schemas"].get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema


# Array properties marked `x-trust-dependent`: which items the server accepts depends on its trust store (an issuer
# allow-list must name trusted anchors), so generated items are not valid requests.
_TRUST_DEPENDENT = sorted({name for name, _ in _properties(_document, lambda schema: _resolved(schema).get("x-trust-dependent"))})


def _names_trust(body):
    return isinstance(body, dict) and any(isinstance(body.get(name), list) and body.get(name) for name in _TRUST_DEPENDENT)


# String properties marked `x-json-object-text`: a form field whose text must be a JSON object (`wallet_metadata`),
# which JSON Schema cannot state of a string.
_JSON_OBJECT_TEXT = sorted({name for name, _ in _properties(_document, lambda schema: schema.get("x-json-object-text"))})


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


# Properties marked `x-configuration-dependent`: whether the server takes a value depends on its configuration (a
# transaction's own `webhookURL` needs the server's webhook), so a generated value is not a valid request here.
_CONFIGURATION_DEPENDENT = sorted({name for name, _ in _properties(_document, lambda schema: schema.get("x-configuration-dependent"))})


def _names_configuration(body):
    return isinstance(body, dict) and any(body.get(name) is not None for name in _CONFIGURATION_DEPENDENT)


# Formats the server under test does not offer (SCHEMATHESIS_FORMATS_NOT_OFFERED, comma-separated): the production
# example offers neither apple-app nor openid4vp-redirect, so a create for them is rightly 400 envelope.unsupported.
_NOT_OFFERED = {name for name in os.environ.get("SCHEMATHESIS_FORMATS_NOT_OFFERED", "").split(",") if name}


def _not_offered(body):
    return isinstance(body, dict) and isinstance(body.get("format"), str) and body["format"] in _NOT_OFFERED


# Every phase: the coverage phase applies filter_case only, the others filter_case too.
@schemathesis.hook
def filter_case(context, case):
    return (not _repeats(case.body) and not _names_trust(case.body) and not _not_object_text(case.body)
            and not _not_offered(case.body) and not _names_configuration(case.body))
