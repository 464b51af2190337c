"""ctx policies."""
