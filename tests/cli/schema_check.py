#!/usr/bin/env python3
"""Validates JSON records against litgraph's record schemas (schemas/*.schema.json).

Reads a JSON array on stdin: [{"label": ..., "schema": "paper", "records": [...]}, ...]
and writes one JSON line per item: {"label", "schema", "errors": [first error of each
failing record]}. References between the schema files ("paper.schema.json",
"ranked_node.schema.json#/$defs/path") resolve within SCHEMA_DIR. Needs python3-jsonschema
(4.10, Debian 12) or newer; exit 2 when it is missing.

  schema_check.py SCHEMA_DIR < items.json
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(2)


def load_all(directory):
    schemas = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".schema.json"):
            with open(os.path.join(directory, name)) as f:
                schemas[name] = json.load(f)
    return schemas


def validator_factory(schemas):
    """A function from a schema name to a validator that resolves sibling files."""
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        registry = Registry().with_resources(
            (name, Resource.from_contents(s)) for name, s in schemas.items())

        def make(name):
            cls = jsonschema.validators.validator_for(schemas[name])
            root = dict(schemas[name], **{"$id": name})
            return cls(root, registry=registry)
    except ImportError:  # jsonschema 4.10 (Debian 12): RefResolver with a store
        def make(name):
            cls = jsonschema.validators.validator_for(schemas[name])
            resolver = jsonschema.RefResolver(base_uri=name, referrer=schemas[name], store=schemas)
            return cls(schemas[name], resolver=resolver)
    return make


def main():
    schemas = load_all(sys.argv[1])
    make = validator_factory(schemas)
    for name, s in schemas.items():
        jsonschema.validators.validator_for(s).check_schema(s)
    cache = {}
    for item in json.load(sys.stdin):
        name = item["schema"] + ".schema.json"
        if name not in schemas:
            errors = [f"no schema {name}"]
        else:
            v = cache.setdefault(name, make(name))
            errors = []
            for i, rec in enumerate(item["records"]):
                e = next(iter(sorted(v.iter_errors(rec), key=lambda e: list(e.path))), None)
                if e is not None:
                    where = "/".join(str(p) for p in e.absolute_path)
                    errors.append(f"record {i + 1}: {where or '(record)'}: {e.message}")
        print(json.dumps({"label": item["label"], "schema": item["schema"], "errors": errors}))


if __name__ == "__main__":
    main()
