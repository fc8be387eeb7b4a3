"""Prints the Kubernetes manifests given as one JSON list of their documents (PyYAML reads them)."""
import json
import sys

import yaml

documents = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as file:
        documents.extend(document for document in yaml.safe_load_all(file) if document)
print(json.dumps(documents))
