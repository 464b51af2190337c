"""Prompt templates, one file per prompt and version (``<name>.<version>.md``, Jinja syntax)."""
