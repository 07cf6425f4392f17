# DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.
"""The part of the SDK derived from openapi.yaml: models, operations and error tokens."""
